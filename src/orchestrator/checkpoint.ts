import type { CheckpointStore } from '../durable/checkpoint-store.js';
import { runStateVersion } from '../durable/run-state.js';
import type {
  JsonValue,
  PendingApproval,
  RunState as SavedRunState,
  RunStateStopReason,
  ToolCallRecord,
} from '../durable/run-state.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';
import { contextWindowJson } from './context-window/context-window-state.js';
import type { RunState } from './run-state.js';
import type { TurnProgress } from './turn-progress.js';
import { awaitingDecision } from './turn-progress.js';

/** How a run ended, for its last checkpoint. */
export interface RunEnding {
  readonly stopReason: RunStateStopReason;
  /** The final content, once the run ended (not while it awaits approval). */
  readonly content?: string;
}

/**
 * Saves the run's state to its store, when it has one, as checkpoint `state.step + 1`; resolves
 * once the store has it. A failing store fails the run with the store's error: the previous
 * checkpoint stays, and the run can be resumed from it.
 */
export async function saveCheckpoint(state: RunState, ending?: RunEnding): Promise<void> {
  const store: CheckpointStore | undefined = state.checkpointStore;
  if (store === undefined) return;
  await store.save(state.runId, takeSnapshot(state, ending));
}

/**
 * The run's state as a {@link SavedRunState}, taken now: everything a later change of the run
 * could touch is copied, since a store may write it after the run has moved on.
 */
export function takeSnapshot(state: RunState, ending?: RunEnding): SavedRunState {
  state.step++;
  const turn = state.currentTurn;
  const decisions = state.approvalDecisions;
  const ended = ending !== undefined && ending.stopReason !== 'awaiting_approval';
  return {
    version: runStateVersion,
    runId: state.runId,
    step: state.step,
    messages: state.messages.slice(),
    turns: state.turns,
    usage: state.usage,
    currentTurn:
      turn === undefined
        ? null
        : {
            turnIndex: turn.turnIndex,
            toolCalls: turn.toolCalls.map((toolCall, index) => record(turn, index)),
          },
    pendingApprovals: turn === undefined ? [] : pendingApprovals(turn, decisions),
    approvalDecisions: { ...decisions },
    stopReason: ending?.stopReason ?? null,
    result: ended ? { content: ending.content ?? '' } : null,
    fingerprint: state.fingerprint,
    strategyState: {
      loop: loopState(state),
      ...(turn === undefined ? {} : { turn: turnState(turn) }),
      ...(state.contextWindow === undefined ? {} : { contextWindow: contextWindowJson(state.contextWindow) }),
    },
  };
}

/** The calls of `turn` that wait for a decision, as `result.pendingApprovals` lists them. */
export function pendingApprovals(
  turn: TurnProgress,
  decisions: Readonly<Record<string, unknown>>,
): PendingApproval[] {
  return awaitingDecision(turn, decisions).map((index) => {
    const toolCall = turn.toolCalls[index]!;
    return { toolCallId: toolCall.id, name: toolCall.function.name, arguments: argumentsOf(toolCall) };
  });
}

function record(turn: TurnProgress, index: number): ToolCallRecord {
  const toolCall = turn.toolCalls[index]!;
  const call = turn.calls[index]!;
  const base = { toolCallId: toolCall.id, name: toolCall.function.name, arguments: argumentsOf(toolCall) };
  if (call.status !== 'done' || call.outcome === undefined) return { ...base, status: call.status };
  return { ...base, status: 'done', outcome: recordedOutcome(call.outcome) };
}

function recordedOutcome(outcome: ToolCallOutcome): NonNullable<ToolCallRecord['outcome']> {
  return {
    content: outcome.content,
    durationMs: outcome.durationMs,
    ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
}

/** The arguments as a string, even from an adapter that broke its contract (they are answered as invalid). */
function argumentsOf(toolCall: TurnProgress['toolCalls'][number]): string {
  const value: unknown = toolCall.function.arguments;
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** What the loop's features keep between turns, as JSON: `strategyState.loop`. */
function loopState(state: RunState): JsonValue {
  const guard = state.loopGuard;
  return {
    requestId: state.requestId,
    elapsedMs: Math.max(0, state.now() - state.startedAt),
    toolCallsMade: state.toolCallsMade,
    toolChoiceReset: state.toolChoiceReset,
    loopDetected: state.loopDetected,
    budgetOverrun: state.budgetOverrun === undefined ? null : { ...state.budgetOverrun },
    // A copy field by field (its strings are immutable): a JSON round trip of the quoted content
    // on every save cost a sixth of a checkpointed turn.
    loopGuard:
      guard === undefined
        ? null
        : {
            ...(guard.lastName === undefined ? {} : { lastName: guard.lastName }),
            ...(guard.lastArguments === undefined ? {} : { lastArguments: guard.lastArguments }),
            streak: guard.streak,
            blocked: guard.blocked,
            ...(guard.lastContent === undefined ? {} : { lastContent: guard.lastContent }),
            errorStreaks: { ...guard.errorStreaks },
          },
  };
}

/** What was decided about the turn's calls before they ran: `strategyState.turn`. */
function turnState(turn: TurnProgress): JsonValue {
  return {
    refusals:
      turn.refusals === undefined ? null : (JSON.parse(JSON.stringify([...turn.refusals])) as JsonValue),
    streakContentIndex: turn.streakContentIndex ?? null,
    stop: turn.stop ?? null,
    activeTools: turn.activeTools === undefined ? null : [...turn.activeTools],
  };
}
