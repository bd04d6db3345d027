import type { ChatMessage, MessageContent } from '../model/messages.js';
import type { Usage } from '../model/usage.js';
import type { ToolErrorCode } from '../tools/tool-call-outcome.js';
import type { StopReason } from '../tracing/trace-events.js';
import type { RunFingerprint } from './run-fingerprint.js';

/** The version of the {@link RunState} format this package writes and reads. */
export const runStateVersion = 1;

import type { JsonValue } from '../model/messages.js';

export type { JsonValue };

/**
 * The saved snapshot of a run: everything `resume` needs to go on exactly where the run stopped,
 * as plain JSON (`JSON.parse(JSON.stringify(state))` is the same state). Checkpoint stores save
 * one after each model response and each tool result; `resume` and human approvals read it.
 *
 * Treat it as immutable: stores may keep references to its messages.
 */
export interface RunState {
  /** The format version this package writes (`1`). A state of another version is refused. */
  readonly version: typeof runStateVersion;
  readonly runId: string;
  /**
   * Counts the checkpoints of this run: each save has a higher `step` than the one before. A
   * store keeps the state with the highest `step`, so a late or concurrent save never replaces a
   * newer one.
   */
  readonly step: number;
  /**
   * The transcript so far: the system prompt, the caller's messages, every assistant message and
   * every tool result already appended. Between checkpoints it normally only grows; a store
   * writes only the new messages then, and notices when a hook replaced it.
   */
  readonly messages: readonly ChatMessage[];
  /** Model calls made. */
  readonly turns: number;
  /** Token usage summed over the run. */
  readonly usage: Usage;
  /** The tool calls of the turn in progress; `null` between turns (no calls waiting for results). */
  readonly currentTurn: CurrentTurnState | null;
  /** The current turn's calls that wait for a person's decision, in call order. */
  readonly pendingApprovals: readonly PendingApproval[];
  /**
   * Decisions already given, by tool call id: a decided call is never asked about again. Ids are
   * unique within a run, whatever the transcript holds: a later call that reuses a decided or
   * waiting id is renamed, so a decision never applies to another call.
   */
  readonly approvalDecisions: { readonly [toolCallId: string]: ApprovalDecision };
  /**
   * Why the run stopped: `'awaiting_approval'` while it waits for decisions (it goes on on
   * `resume`), any other reason once it ended; `null` while it runs.
   */
  readonly stopReason: RunStateStopReason | null;
  /** The run's outcome, once it ended (`stopReason` set and not `'awaiting_approval'`); `null` before. */
  readonly result: RunStateResult | null;
  /** The tool set and model the run was saved with: resuming with others is refused unless forced. */
  readonly fingerprint: RunFingerprint;
  /**
   * Opaque JSON state of loop features, by feature name (e.g. `contextWindow` for the masking
   * state of context-window management). Stores save it as it is; `{}` when no feature has any.
   */
  readonly strategyState: { readonly [feature: string]: JsonValue };
}

/** Why a saved run stopped: a `StopReason`, or `'awaiting_approval'` while it waits for decisions. */
export type RunStateStopReason = StopReason | 'awaiting_approval';

/** The tool calls of the model turn in progress, with what is known of each. */
export interface CurrentTurnState {
  /** Zero-based index of the model turn that asked for these calls. */
  readonly turnIndex: number;
  /** Every call of the turn, in call order. */
  readonly toolCalls: readonly ToolCallRecord[];
}

/**
 * One tool call of the current turn. `'pending'`: not started yet (or waiting for approval);
 * `'started'`: handed to its tool with no result recorded, so a resume runs it again with the
 * same `toolCallId` (at-least-once); `'done'`: its result is recorded and it never runs again.
 */
export interface ToolCallRecord {
  /** The call's id, as it appears in the transcript. */
  readonly toolCallId: string;
  readonly name: string;
  /** The arguments exactly as the model produced them: a JSON string. */
  readonly arguments: string;
  readonly status: 'pending' | 'started' | 'done';
  /** The recorded result; present exactly when `status` is `'done'`. */
  readonly outcome?: RecordedToolOutcome;
}

/** A tool call's recorded result: what goes back to the model. */
export interface RecordedToolOutcome {
  /** The tool message content sent to the model: a string, or the parts of a `toolContent` result. */
  readonly content: MessageContent;
  /** Why the call failed, when it did; `'approval_denied'` when a person said no. */
  readonly errorCode?: ToolErrorCode;
  /** The error the model was told, when the call failed. */
  readonly error?: string;
  readonly durationMs?: number;
}

/**
 * A call that waits for a person's decision before it runs: one of the run's own calls, or a call
 * of an agent nested in one of them (`orchestrator.asTool()`), at any depth.
 */
export interface PendingApproval {
  /**
   * The key to decide the call by in `resume(state, { approvals })`: the call's id; for a call of a
   * nested agent, the ids of the agent-tool calls it sits in and its own, joined by `/`
   * (`'call_2/call_1'`).
   */
  readonly toolCallId: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments exactly as the model produced them: a JSON string (`JSON.parse` it to show). */
  readonly arguments: string;
  /** For a call of a nested agent: the agent-tool calls it sits in, outermost first. Absent for the run's own calls. */
  readonly agentPath?: readonly AgentPathStep[];
}

/** One agent-tool call on the way from a run down to a nested call that waits for approval. */
export interface AgentPathStep {
  /** The agent tool's name, as the calling model called it. */
  readonly toolName: string;
  /** The agent-tool call's own id, in the run that made it. */
  readonly toolCallId: string;
  /** The id of the nested run the call started: `resume` continues that run from its checkpoint. */
  readonly runId: string;
}

/** A person's decision on a call that needed approval. */
export type ApprovalDecision =
  { readonly approved: true } | { readonly approved: false; readonly reason?: string };

/** The outcome of a run that ended, as `run()` resolved it. */
export interface RunStateResult {
  /** The final assistant content (`null` becomes `''`). */
  readonly content: string;
  /** The typed output, when the run asked for one (`output`) and got it. */
  readonly output?: JsonValue;
}
