import type { CheckpointStore } from '../durable/checkpoint-store.js';
import { runStateVersion } from '../durable/run-state.js';
import type {
  JsonValue,
  RunState as SavedRunState,
  RunStateStopReason,
  ToolCallRecord,
} from '../durable/run-state.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';
import type { RunState } from './run-state.js';
import type { TurnProgress } from './turn-progress.js';
import { argumentsOf, pendingApprovalsOf } from './turn-progress.js';
import { savedNestedRuns } from './nested-runs.js';
import { savedTrip } from './guardrails/guardrail-trip.js';

/** How a run ended, for its last checkpoint. */
export interface RunEnding {
  readonly stopReason: RunStateStopReason;
  /** The final content, once the run ended (not while it awaits approval). */
  readonly content?: string;
  /** The typed output, when the run asked for one and got it. */
  readonly output?: unknown;
}

/**
 * Saves the run's state to its store, when it has one, as checkpoint `state.step + 1`: returns the
 * store's promise (await it before the next step), `undefined` without a store. A failing store fails the run with the store's error: the previous
 * checkpoint stays, and the run can be resumed from it.
 */
export function saveCheckpoint(state: RunState, ending?: RunEnding): Promise<void> | undefined {
  const store: CheckpointStore | undefined = state.checkpointStore;
  if (store === undefined) return undefined;
  return store.save(state.runId, takeSnapshot(state, ending));
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
    currentTurn: turn === undefined ? null : { turnIndex: turn.turnIndex, toolCalls: records(turn) },
    pendingApprovals:
      turn === undefined || !turn.calls.some((call) => call.needsApproval || call.nested !== undefined)
        ? []
        : pendingApprovalsOf(turn, decisions),
    approvalDecisions: copyDecisions(decisions),
    stopReason: ending?.stopReason ?? null,
    result: ended
      ? {
          content: ending.content ?? '',
          ...(ending.output === undefined ? {} : { output: ending.output as JsonValue }),
        }
      : null,
    fingerprint: state.handoffs?.fingerprint ?? state.fingerprint,
    strategyState: strategyState(state, turn),
  };
}

/** `strategyState`: the loop's features, by name (assigned, not spread: this runs at every step). */
function strategyState(state: RunState, turn: TurnProgress | undefined): { [feature: string]: JsonValue } {
  const features: { [feature: string]: JsonValue } = { loop: loopState(state) };
  if (turn !== undefined) {
    features['turn'] = turnState(turn);
    const nested = savedNestedRuns(turn);
    if (nested !== undefined) features['nestedRuns'] = nested;
  }
  if (state.contextWindow !== undefined) features['contextWindow'] = state.contextWindow.save();
  if (state.guardrailTrip !== undefined) features['guardrail'] = savedTrip(state.guardrailTrip);
  if (state.handoffs !== undefined) features['handoff'] = state.handoffs.save();
  return features;
}

/** A copy of the decisions; the empty object when there are none (most runs ask for none). */
function copyDecisions(decisions: RunState['approvalDecisions']): RunState['approvalDecisions'] {
  for (const _ in decisions) return { ...decisions };
  return {};
}

function records(turn: TurnProgress): ToolCallRecord[] {
  const list = new Array<ToolCallRecord>(turn.toolCalls.length);
  for (let index = 0; index < list.length; index++) list[index] = record(turn, index);
  return list;
}

function record(turn: TurnProgress, index: number): ToolCallRecord {
  const toolCall = turn.toolCalls[index]!;
  const call = turn.calls[index]!;
  const name = toolCall.function.name;
  const done = call.status === 'done' && call.outcome !== undefined;
  return done
    ? {
        toolCallId: toolCall.id,
        name,
        arguments: argumentsOf(toolCall),
        status: 'done',
        outcome: recordedOutcome(call.outcome!),
      }
    : { toolCallId: toolCall.id, name, arguments: argumentsOf(toolCall), status: call.status };
}

function recordedOutcome(outcome: ToolCallOutcome): NonNullable<ToolCallRecord['outcome']> {
  const recorded: {
    -readonly [Key in keyof NonNullable<ToolCallRecord['outcome']>]: NonNullable<
      ToolCallRecord['outcome']
    >[Key];
  } = {
    content: outcome.content,
    durationMs: outcome.durationMs,
  };
  if (outcome.errorCode !== undefined) recorded.errorCode = outcome.errorCode;
  if (outcome.error !== undefined) recorded.error = outcome.error;
  return recorded;
}

/** What the loop's features keep between turns, as JSON: `strategyState.loop`. */
function loopState(state: RunState): JsonValue {
  const guard = state.loopGuard;
  return {
    requestId: state.requestId,
    elapsedMs: Math.max(0, state.now() - state.startedAt),
    toolCallsMade: state.toolCallsMade,
    toolChoiceReset: state.toolChoiceReset,
    stopRequested: state.stopRequested ?? null,
    budgetOverrun: state.budgetOverrun === undefined ? null : { ...state.budgetOverrun },
    // A copy field by field: its strings are immutable, so no deep copy is needed.
    loopGuard: guard === undefined ? null : loopGuardState(guard),
  };
}

/** The loop guard's memory, field by field (its strings are immutable, so no deep copy is needed). */
function loopGuardState(guard: NonNullable<RunState['loopGuard']>): JsonValue {
  const copy: { [field: string]: JsonValue } = { streak: guard.streak, blocked: guard.blocked };
  if (guard.lastName !== undefined) copy['lastName'] = guard.lastName;
  if (guard.lastArguments !== undefined) copy['lastArguments'] = guard.lastArguments;
  if (guard.lastContent !== undefined) copy['lastContent'] = guard.lastContent;
  copy['errorStreaks'] = { ...guard.errorStreaks };
  return copy;
}

/** What was decided about the turn's calls before they ran: `strategyState.turn`. */
function turnState(turn: TurnProgress): JsonValue {
  return {
    refusals:
      turn.refusals === undefined ? null : (JSON.parse(JSON.stringify([...turn.refusals])) as JsonValue),
    streakContentIndex: turn.streakContentIndex ?? null,
    activeTools: turn.activeTools === undefined ? null : [...turn.activeTools],
  };
}
