import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link MaxTurnsExceededError}. */
export interface MaxTurnsExceededErrorOptions<Result> {
  readonly maxTurns: number;
  /** Everything the run produced before it stopped. */
  readonly result: Result;
}

/**
 * The run reached `maxTurns` while the model still wanted tools, and `onCutShort` is `'throw'`.
 * The partial result, transcript and traces included, is on `result`.
 */
export class MaxTurnsExceededError<Result = unknown> extends ToolOrchestratorError {
  readonly maxTurns: number;
  readonly result: Result;

  constructor(options: MaxTurnsExceededErrorOptions<Result>) {
    super('max_turns_exceeded', {
      message: `The run reached maxTurns (${options.maxTurns}) while the model was still calling tools. Raise maxTurns, or set onCutShort to 'return' or 'final_answer'; the partial result is on error.result.`,
    });
    this.maxTurns = options.maxTurns;
    this.result = options.result;
  }
}
