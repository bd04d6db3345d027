import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';

/** Options of {@link ExplorerTimeoutError}. */
export interface ExplorerTimeoutErrorOptions {
  /** The budget that ran out, in milliseconds. */
  readonly timeoutMs: number;
  /** The question the explorer was answering. */
  readonly question: string;
}

/** The explorer subagent did not produce a report within `timeout_ms`; its run was aborted. */
export class ExplorerTimeoutError extends ToolOrchestratorError {
  readonly timeoutMs: number;
  readonly question: string;

  constructor(options: ExplorerTimeoutErrorOptions) {
    super('explorer_timeout', {
      message:
        `The explorer timed out after ${options.timeoutMs} ms on ${JSON.stringify(options.question)} and was aborted. ` +
        'Raise timeout_ms, use depth "shallow", or narrow the question with directory, files or hints.',
    });
    this.timeoutMs = options.timeoutMs;
    this.question = options.question;
  }
}
