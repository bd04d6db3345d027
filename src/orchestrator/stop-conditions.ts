import type { ChatMessage, ToolCall } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';

/** What a stop condition sees after a turn's tool calls have run. */
export interface StopConditionState {
  /** Zero-based index of the turn that just ran. */
  readonly turn: number;
  readonly response: ModelResponse;
  readonly toolCalls: readonly ToolCall[];
  readonly outcomes: readonly ToolCallOutcome[];
  readonly messages: readonly ChatMessage[];
}

/** Ends the run with `stopReason: 'stop_condition'` when it returns true. */
export type StopCondition = (state: StopConditionState) => boolean;

/**
 * Stops the run once the model has called `toolName` and the call succeeded.
 *
 * @example
 * new ToolOrchestrator(adapter, tools, { stopWhen: toolCalled('finish_exploration') });
 */
export function toolCalled(toolName: string): StopCondition {
  return ({ outcomes }) =>
    outcomes.some((outcome) => outcome.name === toolName && outcome.error === undefined);
}

/** Stops the run after `count` turns, counted from 1. */
export function turnCountIs(count: number): StopCondition {
  return ({ turn }) => turn + 1 >= count;
}
