import type { ToolCall } from '../model/messages.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';
import type { ToolErrorCode } from '../tools/tool-call-outcome.js';

/** A call answered with an error instead of being run. */
export interface Refusal {
  readonly errorCode: ToolErrorCode;
  /** The model-facing error; for a blocked repeat it is built once the quoted result is known. */
  readonly error: string;
  /** A repeat the loop guard blocked: its place in the streak, and which result to quote. */
  readonly blocked?: {
    readonly streak: number;
    /** Index in this turn of the identical call whose result is quoted; -1: the result remembered from an earlier turn. */
    readonly quotes: number;
  };
}

/** What is known of one tool call of the turn in progress. */
export interface CallProgress {
  /** `'started'`: handed to its tool with no outcome yet; `'done'`: its outcome is recorded. */
  status: 'pending' | 'started' | 'done';
  outcome: ToolCallOutcome | undefined;
  /** The call waits for a person's decision (`needsApproval`) unless one is recorded. */
  readonly needsApproval: boolean;
  /** Its `tool_result` event was emitted (before a pause for approval, or by the run that paused). */
  reported: boolean;
}

/**
 * The tool calls of the turn being answered, everything decided about them before they ran, and
 * the outcome of each as it comes in: what a checkpoint saves between a model response and the
 * next model call, so a resumed run answers the same calls the same way and runs only the ones
 * without a recorded outcome.
 */
export interface TurnProgress {
  readonly turnIndex: number;
  /** The calls as they run: ids made unique, repairs applied. */
  readonly toolCalls: readonly ToolCall[];
  readonly calls: CallProgress[];
  /** Calls answered with an error instead of running, by index (see `gateToolCalls`). */
  readonly refusals: Map<number, Refusal> | undefined;
  readonly streakContentIndex: number | undefined;
  /** The tools the turn's calls may run when `prepareTurn` limited them (`activeTools`); `undefined`: all. */
  readonly activeTools: readonly string[] | undefined;
}

/** Whether call `index` runs now: not refused, no outcome yet, and approved when it needs approval. */
export function isRunnable(
  turn: TurnProgress,
  index: number,
  decisions: Readonly<Record<string, { readonly approved: boolean }>>,
): boolean {
  const call = turn.calls[index]!;
  if (call.status === 'done' || turn.refusals?.has(index)) return false;
  return !call.needsApproval || decisions[turn.toolCalls[index]!.id]?.approved === true;
}

/** The calls that still wait for a decision, in call order. */
export function awaitingDecision(turn: TurnProgress, decisions: Readonly<Record<string, unknown>>): number[] {
  const indexes: number[] = [];
  for (let index = 0; index < turn.calls.length; index++) {
    const call = turn.calls[index]!;
    if (call.status === 'done' || !call.needsApproval || turn.refusals?.has(index)) continue;
    if (!Object.hasOwn(decisions, turn.toolCalls[index]!.id)) indexes.push(index);
  }
  return indexes;
}
