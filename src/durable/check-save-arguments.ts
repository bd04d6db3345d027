import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { RunState } from './run-state.js';
import { validateRunState } from './validate-run-state.js';

/**
 * Checks a run id given to a store.
 *
 * @throws {InvalidArgumentError} when it is not a non-empty string.
 */
export function checkRunId(runId: unknown): asserts runId is string {
  if (typeof runId !== 'string' || runId === '') {
    throw new InvalidArgumentError({
      argument: 'runId',
      value: runId,
      message: 'must be a non-empty string: the id of the run (RunState.runId).',
    });
  }
}

/**
 * Checks what a store's `save` got: the run id, and every field of the state but the messages
 * (which a store checks as it writes them, or not at all when it keeps them as they are).
 *
 * @throws {InvalidArgumentError} when `runId` is not `state.runId`.
 * @throws {InvalidRunStateError} when a field of the state has the wrong shape.
 */
export function checkSaveArguments(runId: unknown, state: RunState): void {
  checkRunId(runId);
  if (typeof state !== 'object' || state === null || !Array.isArray(state.messages)) {
    validateRunState(state);
  }
  validateRunState({ ...state, messages: [] });
  if (state.runId !== runId) {
    throw new InvalidArgumentError({
      argument: 'runId',
      value: runId,
      message: `must be the state's own runId ("${state.runId}"): save(state.runId, state).`,
    });
  }
}
