import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';

/** Why a file inside the sandbox could not be read, as `code` values. */
export type FileReadErrorCode = 'file_not_found' | 'not_a_file' | 'binary_file' | 'file_too_large';

/** Options of {@link FileReadError}. */
export interface FileReadErrorOptions {
  /** The repo-relative path that could not be read. */
  readonly path: string;
  /** What went wrong and what to do instead. */
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * A path inside the sandbox exists-or-not but cannot be read as text: missing, a directory,
 * binary, or larger than `maxFileBytes`. The message says what to do instead.
 */
export class FileReadError extends ToolOrchestratorError {
  /** The repo-relative path that could not be read. */
  readonly path: string;
  declare readonly code: FileReadErrorCode;

  constructor(code: FileReadErrorCode, options: FileReadErrorOptions) {
    super(code, { message: options.message, cause: options.cause });
    this.path = options.path;
  }
}
