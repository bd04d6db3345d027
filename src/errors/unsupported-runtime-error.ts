import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link UnsupportedRuntimeError}. */
export interface UnsupportedRuntimeErrorOptions {
  /** What cannot work in this runtime, e.g. `'FileCheckpointStore'`. */
  readonly feature: string;
  /** What it needs that the runtime lacks, and what to use instead. */
  readonly message: string;
}

/**
 * A feature needs what this runtime does not have (Node's file system in a browser, say). The
 * message says what to use instead. Code `'unsupported_runtime'`.
 */
export class UnsupportedRuntimeError extends ToolOrchestratorError {
  readonly feature: string;

  constructor(options: UnsupportedRuntimeErrorOptions) {
    super('unsupported_runtime', { message: options.message });
    this.feature = options.feature;
  }
}
