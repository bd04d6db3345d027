import type { ChatMessage } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { Usage } from '../model/usage.js';
import { emptyUsage } from '../model/usage.js';
import type { TraceDispatcher } from '../tracing/trace-dispatcher.js';
import type { BudgetOverrun } from './budget.js';
import type { ApprovalDecision } from '../durable/run-state.js';
import type { RunFingerprint } from '../durable/run-fingerprint.js';
import type { CheckpointStore } from '../durable/checkpoint-store.js';
import type { ContextWindow } from './context-window/context-window.js';
import type { LoopGuardState } from './loop-guard.js';
import { createLoopGuardState } from './loop-guard.js';
import type { TurnProgress } from './turn-progress.js';
import type { GuardrailTrip } from './guardrails/guardrail-trip.js';
import type { HandoffRun } from './handoffs/handoff-run.js';

/**
 * What a run knows of itself, as plain values (a `Set` of ids aside): what a checkpoint saves
 * (`takeSnapshot`) and a resume reads back (`restoreRun`).
 */
export interface RunProgress {
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
  /** The guardrail tripwire that ends the run, once one tripped. */
  guardrailTrip: GuardrailTrip | undefined;
  /** The turn whose tool calls are being answered; `undefined` between turns. */
  currentTurn: TurnProgress | undefined;
  /** People's decisions on calls that needed approval, by tool call id. */
  readonly approvalDecisions: Record<string, ApprovalDecision>;
  /** The `step` of the last checkpoint taken (saved, or handed out as `result.state`). */
  step: number;
  /** The typed output, once the model gave one that matches the `output` schema. */
  output: { readonly value: unknown } | undefined;
}

/** What a run works with that lives only in this process; none of it is saved as it is. */
export interface RunHandles {
  readonly trace: TraceDispatcher;
  /** The run's own abort signal (see `liveRun`); every wait of the run races against it. */
  readonly signal: AbortSignal | undefined;
  /** The run's clock (the orchestrator's `now`). */
  readonly now: () => number;
  /** Receives the content as it arrives (deltas, or each response's content): `RunStream.textStream`. */
  readonly onText: ((text: string) => void) | undefined;
  /** Where checkpoints go; `undefined` without a `checkpointStore`. */
  readonly checkpointStore: CheckpointStore | undefined;
  /** The tool set and model of the run, saved with every checkpoint. */
  readonly fingerprint: RunFingerprint;
  /**
   * What each model call sends, kept under the model's window (it saves its own state in each
   * checkpoint); `undefined` when `contextWindow` is off.
   */
  readonly contextWindow: ContextWindow | undefined;
  /** Lets go of the signals the run's own signal follows; `driveRun` calls it when the run settles. */
  readonly release: () => void;
  /** The agent the run is with and its handoffs; `undefined` when the starting agent has no `handoffs`. */
  readonly handoffs?: HandoffRun | undefined;
}

/** Everything one run owns: its progress and this process's handles. Runs share nothing. */
export interface RunState extends RunProgress, RunHandles {}

/** What a new run starts from. */
export interface NewRun {
  readonly runId: string;
  readonly requestId: string;
  /** The transcript it starts with (the system prompt first, when one was given). */
  readonly messages: ChatMessage[];
  /** The loop guard is on. */
  readonly guardOn: boolean;
}

/** The state of a run that starts now: nothing done yet. */
export function startRunState(run: NewRun, handles: RunHandles): RunState {
  return {
    runId: run.runId,
    requestId: run.requestId,
    messages: run.messages,
    startedAt: handles.now(),
    toolCallIds: new Set(),
    turns: 0,
    usage: emptyUsage,
    lastResponse: undefined,
    toolCallsMade: 0,
    toolChoiceReset: false,
    loopGuard: run.guardOn ? createLoopGuardState() : undefined,
    budgetOverrun: undefined,
    stopRequested: undefined,
    guardrailTrip: undefined,
    currentTurn: undefined,
    approvalDecisions: {},
    step: 0,
    output: undefined,
    ...handles,
  };
}

/** A copy of the messages, the system prompt first unless they already start with a system message. */
export function withSystemPrompt(
  messages: readonly ChatMessage[],
  systemPrompt: string | undefined,
): ChatMessage[] {
  return systemPrompt !== undefined && messages[0]?.role !== 'system'
    ? [{ role: 'system', content: systemPrompt }, ...messages]
    : [...messages];
}
