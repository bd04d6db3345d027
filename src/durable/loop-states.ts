import type { RunState } from './run-state.js';

/**
 * The state the loop is handing to `store.save` right now. Such a state is a fresh object tree
 * (its message list a copy too) that the loop hands to no one else and never changes afterwards,
 * so a store may keep it as it is instead of copying it. A store's `save` asks synchronously,
 * before its first `await`, and only about the very object it got (a wrapper store that passes the
 * state on at once still qualifies). Any other state (a caller's, or `result.state`, which the
 * caller holds too) is not the loop's own, and is copied. A module variable rather than a WeakSet
 * of states: a weak entry per step cost more than the rest of the save.
 */
let handing: RunState | undefined;

/** Marks `state` as the loop's own until {@link endHandOver}: call `store.save` in between. */
export function beginHandOver(state: RunState): void {
  handing = state;
}

/** Ends the hand-over {@link beginHandOver} began, once `store.save` returned its promise. */
export function endHandOver(): void {
  handing = undefined;
}

/** Whether `state` is the state the loop is handing to a store right now (see {@link beginHandOver}). */
export function isLoopState(state: RunState): boolean {
  return handing === state;
}
