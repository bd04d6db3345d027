import type { BudgetLimit } from '../tracing/trace-events.js';
import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link BudgetExceededError}. */
export interface BudgetExceededErrorOptions<Result> {
  /** The limit that was reached, by its option name. */
  readonly limit: BudgetLimit;
  /** The limit's value. */
  readonly value: number;
  /** How much the run had used: tokens, tool calls, milliseconds or USD. */
  readonly used: number;
  /** Everything the run produced before it stopped. */
  readonly result: Result;
}

/**
 * The run reached a `budget` limit and `onCutShort` is `'throw'`. The partial result, transcript
 * and traces included, is on `result`.
 */
export class BudgetExceededError<Result = unknown> extends ToolOrchestratorError {
  readonly limit: BudgetLimit;
  readonly value: number;
  readonly used: number;
  readonly result: Result;

  constructor(options: BudgetExceededErrorOptions<Result>) {
    super('budget_exceeded', {
      message: `The run reached its budget: ${options.limit} is ${options.value} and it had used ${options.used}. Raise budget.${options.limit}, or set onCutShort to 'return' or 'final_answer'; the partial result is on error.result.`,
    });
    this.limit = options.limit;
    this.value = options.value;
    this.used = options.used;
    this.result = options.result;
  }
}
