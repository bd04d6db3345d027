import type { FingerprintChange } from '../durable/run-fingerprint.js';
import { describeFingerprintChange } from '../durable/run-fingerprint.js';
import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link ResumeMismatchError}. */
export interface ResumeMismatchErrorOptions {
  /** The run that was to be resumed. */
  readonly runId: string;
  /** What differs between the saved fingerprint and the current one. */
  readonly changes: readonly FingerprintChange[];
}

/**
 * A run was resumed with another tool set or model than it was saved with. `changes` names each
 * difference (tools added, removed or with another schema; the model). Code `'resume_mismatch'`.
 */
export class ResumeMismatchError extends ToolOrchestratorError {
  readonly runId: string;
  readonly changes: readonly FingerprintChange[];

  constructor(options: ResumeMismatchErrorOptions) {
    super('resume_mismatch', {
      message:
        `Cannot resume run "${options.runId}": since it was saved, ${options.changes.map(describeFingerprintChange).join('; ')}. ` +
        'Resume it with the tools and model it was saved with, or pass { force: true } to resume it anyway.',
    });
    this.runId = options.runId;
    this.changes = options.changes;
  }
}
