import type { RunStateStopReason } from '../durable/run-state.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { ToolCall } from '../model/messages.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';
import type { BudgetOverrun } from './budget.js';
import { overrunMessage, spentOverrun } from './budget.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';

/**
 * Why a run ends: decided here, and only here. Steps that find a reason to end the run during a turn
 * (the loop guard, the budget) request it with {@link requestStop}; the loop asks
 * {@link stopBeforeTurn} before each model call and {@link stopAfterTools} after each turn's tools.
 */

/** What a turn's tool step did, as far as ending the run goes. */
export type ToolStepOutcome =
  | {
      readonly type: 'answered';
      readonly toolCalls: readonly ToolCall[];
      readonly outcomes: readonly ToolCallOutcome[];
    }
  | { readonly type: 'awaiting_approval' };

/** Asks for the run to end after the turn under way; the first request stands. */
export function requestStop(state: RunState, reason: 'loop_detected' | 'budget_exceeded'): void {
  state.stopRequested ??= reason;
}

/** Remembers the budget limit the run reached and traces it, once. */
export function recordOverrun(
  state: RunState,
  overrun: BudgetOverrun,
  stopReason: 'budget_exceeded' | 'loop_detected' = 'budget_exceeded',
): void {
  if (state.budgetOverrun !== undefined) return;
  state.budgetOverrun = overrun;
  state.trace.emit('warning', {
    code: 'budget_exceeded',
    message: overrunMessage(overrun, stopReason),
    limit: overrun.limit,
  });
}

/** Why the run ends before its next model call: aborted, `maxTurns`, or a budget spent. */
export function stopBeforeTurn(state: RunState, config: RunConfig): RunStateStopReason | undefined {
  if (state.signal?.aborted) return 'aborted';
  if (state.turns >= config.maxTurns) return 'max_turns';
  if (config.budget === undefined) return undefined;
  const overrun = spentOverrun(config.budget, state.usage, config.now() - state.startedAt);
  if (overrun === undefined) return undefined;
  recordOverrun(state, overrun);
  return 'budget_exceeded';
}

/**
 * Why the run ends once a turn's tools were answered: calls wait for a person, the run was aborted,
 * a tool guardrail tripped, the loop guard or the budget asked for it, or a stop condition holds.
 */
export function stopAfterTools(
  state: RunState,
  config: RunConfig,
  response: ModelResponse,
  step: ToolStepOutcome,
): RunStateStopReason | undefined {
  if (step.type === 'awaiting_approval') return 'awaiting_approval';
  if (state.signal?.aborted) return 'aborted';
  if (state.guardrailTrip !== undefined) return 'guardrail_tripped';
  if (state.stopRequested !== undefined) return state.stopRequested;
  for (const condition of config.stopConditions) {
    if (
      condition({
        turn: state.trace.turn,
        response,
        toolCalls: step.toolCalls,
        outcomes: step.outcomes,
        messages: state.messages,
      })
    ) {
      return 'stop_condition';
    }
  }
  return undefined;
}
