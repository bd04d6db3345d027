import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';

/** Options of {@link SandboxError}. */
export interface SandboxErrorOptions {
  /** The path the caller asked for, as given. */
  readonly path: string;
  /** What was refused and what to do instead. */
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * A path was refused by the sandbox: it escapes the repository root (`..`, an absolute
 * path, a symlink leading outside) or names a denied secret file. Code `'sandbox_violation'`.
 */
export class SandboxError extends ToolOrchestratorError {
  /** The offending path, as the caller gave it. */
  readonly path: string;

  constructor(options: SandboxErrorOptions) {
    super('sandbox_violation', { message: options.message, cause: options.cause });
    this.path = options.path;
  }
}
