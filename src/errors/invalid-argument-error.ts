import { describeValue } from './describe-value.js';
import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link InvalidArgumentError}. */
export interface InvalidArgumentErrorOptions {
  /** The name of the bad argument or option, e.g. `'maxTurns'`. */
  readonly argument: string;
  /** The value the caller gave. */
  readonly value: unknown;
  /** What was wrong and what to do, e.g. `'must be a positive integer'`. */
  readonly message: string;
}

/** A caller passed a bad argument or option; the message names it, its value and the fix. */
export class InvalidArgumentError extends ToolOrchestratorError {
  readonly argument: string;
  readonly value: unknown;

  constructor(options: InvalidArgumentErrorOptions) {
    super('invalid_argument', {
      message: `Invalid ${options.argument} (${describeValue(options.value)}): ${options.message}`,
    });
    this.argument = options.argument;
    this.value = options.value;
  }
}
