import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';

/** Options of {@link CodeIndexError}. */
export interface CodeIndexErrorOptions {
  /** The path or symbol the caller asked about, as given. */
  readonly subject: string;
  /** What went wrong and what to do instead. */
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * The code index cannot answer for a file: it is in no language the index parses.
 * Code `'unsupported_file'`.
 */
export class CodeIndexError extends ToolOrchestratorError {
  /** The path or symbol the caller asked about. */
  readonly subject: string;

  constructor(options: CodeIndexErrorOptions) {
    super('unsupported_file', { message: options.message, cause: options.cause });
    this.subject = options.subject;
  }
}
