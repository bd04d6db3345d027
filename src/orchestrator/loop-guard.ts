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
  /** The canonical form of `lastArguments`, computed only when a comparison needs it. */
  lastCanonical: string | undefined;
  /** How many consecutive calls were identical to the last one, itself included. */
  streak: number;
  /** True once a call of the current streak was blocked. */
  blocked: boolean;
  /** The tool message content of the streak's last call that ran: quoted when a repeat is blocked. */
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
    lastCanonical: undefined,
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
 * same tool with different text are compared as canonical JSON.
 */
export function checkCall(
  state: LoopGuardState,
  guard: ResolvedLoopGuard,
  toolCall: ToolCall,
): LoopGuardVerdict {
  const name = toolCall.function.name;
  const rawArguments = toolCall.function.arguments;
  let canonical: string | undefined;
  let same = false;
  if (name === state.lastName) {
    if (rawArguments === state.lastArguments) {
      same = true;
    } else {
      state.lastCanonical ??= canonicalArguments(state.lastArguments ?? '');
      canonical = canonicalArguments(rawArguments);
      same = canonical === state.lastCanonical;
    }
  }
  // Either way this call is the one the next is compared with; its canonical form is kept when known.
  state.lastArguments = rawArguments;
  if (canonical !== undefined) state.lastCanonical = canonical;
  if (same) {
    state.streak++;
  } else {
    state.lastName = name;
    state.lastCanonical = canonical;
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

/**
 * Tool arguments as canonical JSON: keys sorted at every level, no whitespace. Arguments that are
 * not JSON compare as their raw text.
 */
export function canonicalArguments(rawArguments: string): string {
  let value: unknown;
  try {
    value = JSON.parse(rawArguments);
  } catch {
    return rawArguments;
  }
  try {
    return canonicalJson(value);
  } catch {
    return rawArguments; // Nesting deeper than the stack: compare as text.
  }
}

// A dozen lines on the per-call path: a library (safe-stable-stringify) would add a dependency
// and cycle handling that values from JSON.parse never need.
function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      text += canonicalJson(value[index]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '{';
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (index > 0) text += ',';
    text += `${JSON.stringify(key)}:${canonicalJson(record[key])}`;
  }
  return `${text}}`;
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
