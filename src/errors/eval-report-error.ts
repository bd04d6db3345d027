import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link EvalReportError}. */
export interface EvalReportErrorOptions {
  /** The report file. */
  readonly path: string;
  /** What is wrong and what to do. */
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * `readReport` could not read an evaluation report: the file is missing or not JSON, it is of
 * another version, or a field is not what `evaluate()` writes (the message names it).
 */
export class EvalReportError extends ToolOrchestratorError {
  readonly path: string;

  constructor(options: EvalReportErrorOptions) {
    super('eval_report_invalid', { message: options.message, cause: options.cause });
    this.path = options.path;
  }
}
