import { ToolOrchestratorError } from '../errors/tool-orchestrator-error.js';

/** Options of {@link RunJobFailedError}. */
export interface RunJobFailedErrorOptions {
  readonly runId: string;
  /** BullMQ's `failedReason`: the message of what the worker threw. */
  readonly failedReason: string;
  /** How many times workers tried the run. */
  readonly attemptsMade: number;
}

/**
 * A queued run failed in its worker (the model call failed, the store failed, the orchestrator
 * factory threw, or it stalled more often than `maxStalledCount`): `result()` rejects with it.
 * Its checkpoint stays, so `orchestrator.resume(runId)` can go on from it. Code `'run_job_failed'`.
 */
export class RunJobFailedError extends ToolOrchestratorError {
  readonly runId: string;
  readonly failedReason: string;
  readonly attemptsMade: number;

  constructor(options: RunJobFailedErrorOptions) {
    super('run_job_failed', {
      message: `The queued run "${options.runId}" failed after ${options.attemptsMade} attempt${options.attemptsMade === 1 ? '' : 's'}: ${options.failedReason}. Its last checkpoint is kept: resume it with orchestrator.resume(runId).`,
    });
    this.runId = options.runId;
    this.failedReason = options.failedReason;
    this.attemptsMade = options.attemptsMade;
  }
}
