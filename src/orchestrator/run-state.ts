import type { ChatMessage } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { Usage } from '../model/usage.js';
import type { TraceDispatcher } from '../tracing/trace-dispatcher.js';
import type { BudgetOverrun } from './budget.js';
import type { ApprovalDecision } from '../durable/run-state.js';
import type { RunFingerprint } from '../durable/run-fingerprint.js';
import type { CheckpointStore } from '../durable/checkpoint-store.js';
import type { ContextWindow } from './context-window/context-window.js';
import type { LoopGuardState } from './loop-guard.js';
import type { TurnProgress } from './turn-progress.js';

/**
 * Everything one run owns; runs share nothing. The data fields are plain values (a `Set` of ids
 * aside), so a run could be saved after any step and resumed; `trace`, `signal` and `onText` are
 * the live handles of this process.
 */
export interface RunState {
  readonly runId: string;
  readonly requestId: string;
  /**
   * The transcript. One array is only ever appended to, so a prefix of it is a stable snapshot;
   * `prepareTurn` with `replaceTranscript` swaps in a new array rather than editing this one.
   */
  messages: ChatMessage[];
  /** When the run started in this process, less the time it had run before a resume (for `maxDurationMs`). */
  readonly startedAt: number;
  /** Every tool call id used so far in the run, to keep ids unique across turns. */
  readonly toolCallIds: Set<string>;
  /** Model calls made. */
  turns: number;
  usage: Usage;
  lastResponse: ModelResponse | undefined;
  /** Tool calls handed to the tool runner (`budget.maxToolCalls`). */
  toolCallsMade: number;
  /** Set once a forced standing `toolChoice` produced tool calls: later calls send `'auto'`. */
  toolChoiceReset: boolean;
  /** The loop guard's memory; `undefined` when the guard is off. */
  readonly loopGuard: LoopGuardState | undefined;
  /** The budget limit that ended the run, once one has. */
  budgetOverrun: BudgetOverrun | undefined;
  /** Set when the loop guard or the budget asks the run to end after the turn under way (`requestStop`). */
  stopRequested: 'loop_detected' | 'budget_exceeded' | undefined;
  /** The turn whose tool calls are being answered; `undefined` between turns. */
  currentTurn: TurnProgress | undefined;
  /** People's decisions on calls that needed approval, by tool call id. */
  readonly approvalDecisions: Record<string, ApprovalDecision>;
  /** The tool set and model of the run, saved with every checkpoint. */
  readonly fingerprint: RunFingerprint;
  /** Where checkpoints go; `undefined` without a `checkpointStore`. */
  readonly checkpointStore: CheckpointStore | undefined;
  /** The `step` of the last checkpoint taken (saved, or handed out as `result.state`). */
  step: number;
  /** What each model call sends, kept under the model's window; `undefined` when `contextWindow` is off. */
  readonly contextWindow: ContextWindow | undefined;

  readonly trace: TraceDispatcher;
  /** The run's own abort signal (see `liveRun`); every wait of the run races against it. */
  readonly signal: AbortSignal | undefined;
  /** The run's clock (the orchestrator's `now`). */
  readonly now: () => number;
  /** Receives the content as it arrives (deltas, or each response's content): `RunStream.textStream`. */
  readonly onText: ((text: string) => void) | undefined;
}
