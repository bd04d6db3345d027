import type { ToolCall } from '../model/messages.js';

/** What the loop guard does when the model repeats itself. */
export type LoopGuardAction = 'block' | 'warn' | 'stop';

/**
 * Options of the loop guard, which watches for a model stuck repeating itself. Pass `false` as
 * `loopGuard` to turn it off.
 */
export interface LoopGuardOptions {
  /**
   * The Nth consecutive identical call (same tool, same arguments as canonical JSON with sorted
   * keys) is caught. With `action: 'block'` it is not run: the model gets a tool error saying it
   * is repeating itself and what the earlier call returned, and if the very next call is the same
   * again the run ends with `stopReason: 'loop_detected'`. At least 2. @default 3
   */
  readonly identicalCalls?: number;
  /** N consecutive error results from one tool trace a `repeated_tool_errors` warning. At least 1. @default 3 */
  readonly repeatedErrors?: number;
  /**
   * `'block'`: do not run the repeated call (above); `'warn'`: only trace the warnings;
   * `'stop'`: end the run with `stopReason: 'loop_detected'` as soon as either pattern is seen.
   * @default 'block'
   */
  readonly action?: LoopGuardAction;
}

/** The loop guard's options with their defaults applied. */
export interface ResolvedLoopGuard {
  readonly identicalCalls: number;
  readonly repeatedErrors: number;
  readonly action: LoopGuardAction;
}

/** What the loop guard remembers across turns: plain data, so a run's state can be saved. */
export interface LoopGuardState {
  /** The last call that was not refused for another reason: its tool name and raw arguments. */
  lastName: string | undefined;
  lastArguments: string | undefined;
  /**
   * `lastArguments` parsed, once a comparison needed it (`undefined` before; {@link notJson} when
   * they are not JSON). Not saved with the run: it is parsed again when needed.
   */
  lastParsed: unknown;
  /** How many consecutive calls were identical to the last one, itself included. */
  streak: number;
  /** True once a call of the current streak was blocked. */
  blocked: boolean;
  /** The tool message content of the streak's last call that ran, as text: quoted when a repeat is blocked. */
  lastContent: string | undefined;
  /** Consecutive error results by tool name. */
  errorStreaks: Record<string, number>;
}

/** The defaults, applied to `loopGuard: true`, `undefined` or a partial object. */
export function resolveLoopGuard(
  options: LoopGuardOptions | boolean | undefined,
): ResolvedLoopGuard | undefined {
  if (options === false) return undefined;
  const given = options === true || options === undefined ? {} : options;
  return {
    identicalCalls: given.identicalCalls ?? 3,
    repeatedErrors: given.repeatedErrors ?? 3,
    action: given.action ?? 'block',
  };
}

export function createLoopGuardState(): LoopGuardState {
  return {
    lastName: undefined,
    lastArguments: undefined,
    lastParsed: undefined,
    streak: 0,
    blocked: false,
    lastContent: undefined,
    errorStreaks: {},
  };
}

/** The guard's verdict on one call. */
export type LoopGuardVerdict =
  | { readonly kind: 'run' }
  /** The streak reached the threshold with `action: 'warn'`: run it, trace a warning. */
  | { readonly kind: 'warn'; readonly streak: number }
  /** Not run; the model is told what the earlier identical call returned. */
  | { readonly kind: 'block'; readonly streak: number }
  /** Not run, and the run ends with `loop_detected`. */
  | { readonly kind: 'stop'; readonly streak: number; readonly afterBlock: boolean };

const run: LoopGuardVerdict = { kind: 'run' };

/**
 * Advances the guard by one call and says what to do with it. Comparing the raw arguments first
 * keeps the common case (a different tool, or the same text) free of parsing; only calls to the
 * same tool with different text are parsed and compared as JSON values (key order aside).
 */
export function checkCall(
  state: LoopGuardState,
  guard: ResolvedLoopGuard,
  toolCall: ToolCall,
): LoopGuardVerdict {
  const name = toolCall.function.name;
  const rawArguments = toolCall.function.arguments;
  let parsed: unknown;
  let same = false;
  if (name === state.lastName) {
    if (rawArguments === state.lastArguments) {
      same = true;
    } else {
      state.lastParsed ??= parseArguments(state.lastArguments ?? '');
      parsed = parseArguments(rawArguments);
      same = sameArguments(parsed, state.lastParsed);
    }
  }
  // Either way this call is the one the next is compared with; its parsed form is kept when known.
  state.lastArguments = rawArguments;
  if (parsed !== undefined) state.lastParsed = parsed;
  if (same) {
    state.streak++;
  } else {
    state.lastName = name;
    state.lastParsed = parsed;
    state.streak = 1;
    state.blocked = false;
    state.lastContent = undefined;
  }
  const streak = state.streak;
  if (state.blocked) return { kind: 'stop', streak, afterBlock: true };
  if (streak < guard.identicalCalls) return run;
  switch (guard.action) {
    case 'block':
      state.blocked = true;
      return { kind: 'block', streak };
    case 'stop':
      return { kind: 'stop', streak, afterBlock: false };
    case 'warn':
      return streak === guard.identicalCalls ? { kind: 'warn', streak } : run;
  }
}

/**
 * Records one result: the streak's last result (for the block message) and the tool's run of
 * errors. Returns the length of the error run when it reaches the threshold, else `undefined`.
 */
export function recordResult(
  state: LoopGuardState,
  guard: ResolvedLoopGuard,
  name: string,
  failed: boolean,
): number | undefined {
  const streaks = state.errorStreaks;
  if (!failed) {
    if (streaks[name] !== undefined) delete streaks[name];
    return undefined;
  }
  const count = (streaks[name] ?? 0) + 1;
  streaks[name] = count;
  return count === guard.repeatedErrors ? count : undefined;
}

/** Marks arguments that are not JSON: they compare as their raw text, so unequal to any other. */
const notJson: unique symbol = Symbol('not JSON');

/** Tool arguments parsed, or {@link notJson}. */
function parseArguments(rawArguments: string): unknown {
  try {
    return JSON.parse(rawArguments) as unknown;
  } catch {
    return notJson;
  }
}

/**
 * Whether two parsed arguments are the same JSON value, key order aside: what comparing them as
 * canonical JSON (keys sorted) would say, without building those strings (they were most of what
 * the guard allocated). Arguments that are not JSON, or nested deeper than the stack, compare as
 * their raw text, which differs here.
 */
function sameArguments(first: unknown, second: unknown): boolean {
  if (first === notJson || second === notJson) return false;
  try {
    return sameJson(first, second);
  } catch {
    return false;
  }
}

/**
 * Whether two values from `JSON.parse` are equal, key order aside: the same verdict as comparing
 * `canonicalJson` of each (the reference, which a property test holds it to). A dozen lines rather
 * than a library (fast-deep-equal): values from JSON.parse have no cycles, prototypes or undefined.
 */
export function sameJson(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  if (typeof first !== 'object' || typeof second !== 'object' || first === null || second === null) {
    return false;
  }
  if (Array.isArray(first)) {
    if (!Array.isArray(second) || first.length !== second.length) return false;
    for (let index = 0; index < first.length; index++) {
      if (!sameJson(first[index], second[index])) return false;
    }
    return true;
  }
  if (Array.isArray(second)) return false;
  const firstRecord = first as Record<string, unknown>;
  const secondRecord = second as Record<string, unknown>;
  const keys = Object.keys(firstRecord);
  if (keys.length !== Object.keys(secondRecord).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(secondRecord, key) || !sameJson(firstRecord[key], secondRecord[key])) return false;
  }
  return true;
}

const quotedResultLimit = 2_000;

/** The tool error a blocked call is answered with. */
export function blockedCallMessage(name: string, streak: number, earlierContent: string | undefined): string {
  const earlier =
    earlierContent === undefined
      ? ''
      : ` The earlier identical call returned: ${
          earlierContent.length > quotedResultLimit
            ? `${earlierContent.slice(0, quotedResultLimit)}... (${earlierContent.length} characters in all)`
            : earlierContent
        }`;
  return `You are repeating yourself: this is call ${streak} in a row of "${name}" with the same arguments, so it was not run.${earlier} Use that result, or do something different; calling it again with the same arguments ends the run.`;
}

/** The tool error of a call refused because the loop guard ended the run. */
export function loopStopMessage(name: string, isCause: boolean): string {
  return isCause
    ? `This call of "${name}" repeats the previous calls with the same arguments, so it was not run and the run was stopped (loop detected).`
    : 'The run was stopped (loop detected) before this call ran.';
}
