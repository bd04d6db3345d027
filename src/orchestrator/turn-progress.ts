import type { PendingApproval } from '../durable/run-state.js';
import type { ToolCall } from '../model/messages.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';
import type { ToolErrorCode } from '../tools/tool-call-outcome.js';
import { hasNestedDecision, nestedPending } from './nested-approvals.js';
import type { PausedRun } from '../tools/calling-run.js';

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
  /** The agent run the call started, paused for approvals of its own calls: the call waits with it. */
  nested?: PausedRun | undefined;
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

/**
 * Whether call `index` runs now: not refused, no outcome yet, approved when it needs approval,
 * and, when its nested agent run paused, with a decision come for one of that run's calls.
 */
export function isRunnable(
  turn: TurnProgress,
  index: number,
  decisions: Readonly<Record<string, { readonly approved: boolean }>>,
): boolean {
  const call = turn.calls[index]!;
  if (call.status === 'done' || turn.refusals?.has(index)) return false;
  const id = turn.toolCalls[index]!.id;
  if (call.needsApproval && decisions[id]?.approved !== true) return false;
  return call.nested === undefined || hasNestedDecision(id, call.nested, decisions);
}

/** The calls that still wait for a decision, their own or their nested run's, in call order. */
export function awaitingDecision(turn: TurnProgress, decisions: Readonly<Record<string, unknown>>): number[] {
  const indexes: number[] = [];
  for (let index = 0; index < turn.calls.length; index++) {
    const call = turn.calls[index]!;
    if (call.status === 'done' || turn.refusals?.has(index)) continue;
    const id = turn.toolCalls[index]!.id;
    if (waitsOwn(id, call, decisions) || waitsNested(id, call, decisions)) indexes.push(index);
  }
  return indexes;
}

/** The calls of `turn` that wait for a decision, as `result.pendingApprovals` lists them. */
export function pendingApprovalsOf(
  turn: TurnProgress,
  decisions: Readonly<Record<string, unknown>>,
): PendingApproval[] {
  const pending: PendingApproval[] = [];
  for (const index of awaitingDecision(turn, decisions)) {
    const toolCall = turn.toolCalls[index]!;
    const call = turn.calls[index]!;
    if (!waitsOwn(toolCall.id, call, decisions)) {
      pending.push(...nestedPending(toolCall.id, call.nested!, decisions));
      continue;
    }
    pending.push({ toolCallId: toolCall.id, name: toolCall.function.name, arguments: argumentsOf(toolCall) });
  }
  return pending;
}

/** The arguments as a string, even from an adapter that broke its contract (they are answered as invalid). */
export function argumentsOf(toolCall: ToolCall): string {
  const value: unknown = toolCall.function.arguments;
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function waitsOwn(id: string, call: CallProgress, decisions: Readonly<Record<string, unknown>>): boolean {
  return call.needsApproval && !Object.hasOwn(decisions, id);
}

function waitsNested(id: string, call: CallProgress, decisions: Readonly<Record<string, unknown>>): boolean {
  return call.nested !== undefined && nestedPending(id, call.nested, decisions).length > 0;
}
