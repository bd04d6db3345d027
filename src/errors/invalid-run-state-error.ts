import { describeValue } from './describe-value.js';
import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link InvalidRunStateError}. */
export interface InvalidRunStateErrorOptions {
  /** Where in the state the problem is, e.g. `'messages[3].role'`; `''` for the state as a whole. */
  readonly path: string;
  /** The value found there. */
  readonly value: unknown;
  /** What is wrong and what to do, e.g. `'must be one of "system", "user", "assistant", "tool"'`. */
  readonly message: string;
  /** The run the state belongs to, when known. */
  readonly runId?: string;
  readonly cause?: unknown;
}

/**
 * A saved run state cannot be used: another format version, a field of the wrong shape, or a
 * checkpoint whose stored data is damaged. The message names the field, its value and what to do.
 * Code `'invalid_run_state'`.
 */
export class InvalidRunStateError extends ToolOrchestratorError {
  readonly path: string;
  readonly value: unknown;
  readonly runId: string | undefined;

  constructor(options: InvalidRunStateErrorOptions) {
    const run =
      options.runId === undefined ? 'Invalid run state' : `Invalid run state of run "${options.runId}"`;
    const where = options.path === '' ? '' : ` at ${options.path}`;
    super('invalid_run_state', {
      message: `${run}${where} (${describeValue(options.value)}): ${options.message}`,
      cause: options.cause,
    });
    this.path = options.path;
    this.value = options.value;
    this.runId = options.runId;
  }
}
