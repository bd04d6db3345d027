/** Every error code this library throws. Adapters and the tool pack add their own codes. */
export type ToolOrchestratorErrorCode =
  | 'invalid_argument'
  | 'tool_definition'
  | 'max_turns_exceeded'
  | 'budget_exceeded'
  | 'loop_detected'
  | 'guardrail_tripped'
  | 'script_exhausted'
  | 'aborted'
  | 'model_error'
  | 'resume_mismatch'
  | 'invalid_run_state'
  | 'structured_output_invalid'
  | (string & {});

/** Options shared by every error of this library. */
export interface ToolOrchestratorErrorOptions {
  readonly message: string;
  readonly cause?: unknown;
}

const brand = Symbol.for('tool-orchestrator.error');

/**
 * The base class of every error this library throws. `name` is the subclass name and
 * `code` a string literal to switch on.
 */
export class ToolOrchestratorError extends Error {
  /** A stable, machine-readable error code. */
  readonly code: ToolOrchestratorErrorCode;
  readonly [brand] = true;

  constructor(code: ToolOrchestratorErrorCode, options: ToolOrchestratorErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any error of this library, even one from another copy of the package. */
  static isInstance(value: unknown): value is ToolOrchestratorError {
    return typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true;
  }
}
