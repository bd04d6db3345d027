import { contentAsText } from '../model/content-parts.js';
import type { CheckpointStore } from '../durable/checkpoint-store.js';
import type { RunState as SavedRunState } from '../durable/run-state.js';
import { validateRunState } from '../durable/validate-run-state.js';
import { compareFingerprints } from '../durable/run-fingerprint.js';
import type { RunFingerprint } from '../durable/run-fingerprint.js';
import { ResumeMismatchError } from '../errors/resume-mismatch-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ToolCall } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { BudgetOverrun, ModelPricing } from './budget.js';
import { costUsd } from './budget.js';
import type { RunResult } from './orchestrator-options.js';
import type { Refusal } from './turn-progress.js';
import type { LoopGuardState } from './loop-guard.js';
import { createLoopGuardState } from './loop-guard.js';
import type { RunHandles, RunState } from './run-state.js';
import { applyDecisions } from './approvals.js';
import type { ApprovalDecision } from '../durable/run-state.js';
import type { TurnProgress } from './turn-progress.js';
import { restoredTrip } from './guardrails/guardrail-trip.js';
import { restoredNestedRuns } from './nested-runs.js';

/** What `strategyState.loop` holds (see `takeSnapshot`). */
interface SavedLoopState {
  readonly requestId?: string;
  readonly elapsedMs?: number;
  readonly toolCallsMade?: number;
  readonly toolChoiceReset?: boolean;
  readonly stopRequested?: 'loop_detected' | 'budget_exceeded' | null;
  readonly budgetOverrun?: BudgetOverrun | null;
  readonly loopGuard?: Partial<LoopGuardState> | null;
}

/** What `strategyState.turn` holds. */
interface SavedTurnState {
  readonly refusals?: [number, Refusal][] | null;
  readonly streakContentIndex?: number | null;
  /** Where states saved before `strategyState.loop.stopRequested` kept a stop the turn's gate asked for. */
  readonly stop?: 'loop_detected' | 'budget_exceeded' | null;
  readonly activeTools?: string[] | null;
}

/** What a restored run needs of the process that resumes it, besides its handles. */
export interface RestoreSettings {
  readonly guardOn: boolean;
  /** Makes a request id for a state saved without one. */
  readonly generateId: () => string;
}

/**
 * The run's live state rebuilt from a saved one: its transcript (copied), counters, loop guard and
 * budget memory, approvals, and the turn whose calls were being answered with every recorded outcome.
 * The run's clock goes on from the time it had run (time spent saved does not count to `maxDurationMs`).
 */
export function restoreRun(saved: SavedRunState, handles: RunHandles, settings: RestoreSettings): RunState {
  const loop = (saved.strategyState['loop'] ?? {}) as SavedLoopState;
  const messages = saved.messages.slice();
  // Every id a decision, a waiting call or the current turn names counts as used, whatever the
  // transcript still holds (a hook may have replaced it): a later call that reuses one is renamed,
  // so a decision only ever applies to the call it was given for.
  const toolCallIds = new Set<string>([
    ...Object.keys(saved.approvalDecisions),
    ...saved.pendingApprovals.map((approval) => approval.toolCallId),
    ...(saved.currentTurn?.toolCalls.map((record) => record.toolCallId) ?? []),
  ]);
  let lastResponse: ModelResponse | undefined;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const toolCall of message.tool_calls ?? []) toolCallIds.add(toolCall.id);
    lastResponse = {
      content: message.content,
      ...(message.tool_calls === undefined ? {} : { tool_calls: message.tool_calls }),
      ...(message.reasoning_content === undefined ? {} : { reasoning_content: message.reasoning_content }),
      ...(message.reasoning === undefined ? {} : { reasoning: message.reasoning }),
      ...(message.providerData === undefined ? {} : { providerData: message.providerData }),
    };
  }
  const savedGuard = loop.loopGuard;
  return {
    runId: saved.runId,
    requestId: loop.requestId ?? settings.generateId(),
    messages,
    startedAt: handles.now() - (loop.elapsedMs ?? 0),
    toolCallIds,
    turns: saved.turns,
    usage: saved.usage,
    lastResponse,
    toolCallsMade: loop.toolCallsMade ?? 0,
    toolChoiceReset: loop.toolChoiceReset ?? false,
    loopGuard: settings.guardOn ? { ...createLoopGuardState(), ...(savedGuard ?? {}) } : undefined,
    budgetOverrun: loop.budgetOverrun ?? undefined,
    stopRequested:
      loop.stopRequested ?? ((saved.strategyState['turn'] ?? {}) as SavedTurnState).stop ?? undefined,
    guardrailTrip: restoredTrip(saved.strategyState['guardrail']),
    currentTurn: restoreTurn(saved),
    approvalDecisions: { ...saved.approvalDecisions },
    step: saved.step,
    output: undefined,
    ...handles,
  };
}

function restoreTurn(saved: SavedRunState): TurnProgress | undefined {
  const turn = saved.currentTurn;
  if (turn === null) return undefined;
  const state = (saved.strategyState['turn'] ?? {}) as SavedTurnState;
  const asked = new Set([
    ...saved.pendingApprovals.map((approval) => approval.toolCallId),
    ...Object.keys(saved.approvalDecisions),
  ]);
  const nestedRuns = restoredNestedRuns(saved.strategyState['nestedRuns']);
  const toolCalls: ToolCall[] = turn.toolCalls.map((record) => ({
    id: record.toolCallId,
    type: 'function',
    function: { name: record.name, arguments: record.arguments },
  }));
  return {
    turnIndex: turn.turnIndex,
    toolCalls,
    calls: turn.toolCalls.map((record) => ({
      // A call that had started but has no recorded outcome runs again (at-least-once).
      status: record.status === 'done' ? 'done' : 'pending',
      outcome:
        record.outcome === undefined
          ? undefined
          : {
              toolCallId: record.toolCallId,
              name: record.name,
              content: record.outcome.content,
              durationMs: record.outcome.durationMs ?? 0,
              ...(record.outcome.errorCode === undefined ? {} : { errorCode: record.outcome.errorCode }),
              ...(record.outcome.error === undefined
                ? record.outcome.errorCode === undefined
                  ? {}
                  : { error: contentAsText(record.outcome.content) }
                : { error: record.outcome.error }),
            },
      needsApproval: asked.has(record.toolCallId),
      // A run pauses only after tracing the results it has; after a crash they are traced again.
      reported: record.status === 'done' && saved.stopReason === 'awaiting_approval',
      nested: record.status === 'done' ? undefined : nestedRuns.get(record.toolCallId),
    })),
    refusals: state.refusals == null || state.refusals.length === 0 ? undefined : new Map(state.refusals),
    streakContentIndex: state.streakContentIndex ?? undefined,
    activeTools: state.activeTools ?? undefined,
  };
}

/**
 * The saved run `resume` goes on from: loaded from the store by id, or checked when given.
 *
 * @throws {InvalidArgumentError} for a run id without a store, or one the store has no checkpoint of.
 * @throws {InvalidRunStateError} when a given state is not a valid `RunState`.
 */
export async function loadSavedRun(
  runIdOrState: string | SavedRunState,
  store: CheckpointStore | undefined,
): Promise<SavedRunState> {
  if (typeof runIdOrState !== 'string') return validateRunState(runIdOrState);
  if (store === undefined) {
    throw new InvalidArgumentError({
      argument: 'runIdOrState',
      value: runIdOrState,
      message:
        'is a run id, but no checkpointStore is set to load it from: set the checkpointStore option (orchestrator or resume), or pass the RunState itself (result.state).',
    });
  }
  const saved = await store.load(runIdOrState);
  if (saved === undefined) {
    throw new InvalidArgumentError({
      argument: 'runIdOrState',
      value: runIdOrState,
      message:
        'names no run the checkpointStore has a checkpoint of: check the id, and that the run was started with this store.',
    });
  }
  return saved;
}

/**
 * Checks that the run is resumed with the tools and model it was saved with.
 *
 * @throws {ResumeMismatchError} listing what changed.
 */
export function checkFingerprint(saved: SavedRunState, current: RunFingerprint): void {
  const changes = compareFingerprints(saved.fingerprint, current);
  if (changes.length > 0) throw new ResumeMismatchError({ runId: saved.runId, changes });
}

/**
 * Checks that a run id given up front is new to the store, so a stale checkpoint never hides a new run.
 *
 * @throws {InvalidArgumentError} when the store has a checkpoint of that id.
 */
export async function checkNewRunId(runId: string, store: CheckpointStore | undefined): Promise<void> {
  if (store === undefined || (await store.load(runId)) === undefined) return;
  throw new InvalidArgumentError({
    argument: 'runOptions.runId',
    value: runId,
    message:
      'already has a checkpoint in the checkpointStore: resume it with orchestrator.resume(runId), delete it with store.delete(runId), or use a new id.',
  });
}

/**
 * The result a run that had ended resolved to, rebuilt from its last checkpoint (no traces: nothing
 * ran); `agent` is the name of the agent it ended with.
 */
export function recordedResult(
  saved: SavedRunState,
  pricing: ModelPricing | undefined,
  agent?: string,
): RunResult {
  return {
    content: saved.result?.content ?? '',
    ...(saved.result?.output === undefined ? {} : { output: saved.result.output }),
    traces: [],
    messages: saved.messages.slice(),
    stopReason: saved.stopReason ?? 'final',
    turns: saved.turns,
    usage: saved.usage,
    ...(pricing === undefined ? {} : { costUsd: costUsd(saved.usage, pricing) }),
    runId: saved.runId,
    ...(agent === undefined ? {} : { agent }),
  };
}

/**
 * The state a resume goes on from: the saved run with `approvals` added to its decisions.
 *
 * @throws {InvalidArgumentError} for a decision on a call that waits for none, or that contradicts an earlier one.
 */
export function resumedRun(
  saved: SavedRunState,
  approvals: { readonly [toolCallId: string]: ApprovalDecision } | undefined,
  handles: RunHandles,
  settings: RestoreSettings,
): RunState {
  const decisions = { ...saved.approvalDecisions };
  applyDecisions(
    decisions,
    approvals,
    saved.pendingApprovals.map((approval) => approval.toolCallId),
  );
  return restoreRun({ ...saved, approvalDecisions: decisions }, handles, settings);
}
