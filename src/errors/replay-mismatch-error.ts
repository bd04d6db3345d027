import { describeValue } from './describe-value.js';
import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link ReplayMismatchError}. */
export interface ReplayMismatchErrorOptions {
  /** The cassette the replay reads. */
  readonly source: string;
  /** The zero-based number of the call that found no recording. */
  readonly callIndex: number;
  /** `'no_recording'`: the cassette has no call left; `'different_request'`: the recorded request differs. */
  readonly reason: 'no_recording' | 'different_request';
  /** Where the requests first differ, as a path into the request (`messages[3].content`). */
  readonly path?: string;
  /** The recorded value at `path`. */
  readonly recorded?: unknown;
  /** The value the replayed call sent at `path`. */
  readonly received?: unknown;
  /** How many calls the cassette holds. */
  readonly recordedCalls: number;
}

/**
 * A `ReplayAdapter` was asked for a call its cassette cannot answer: the cassette has no call
 * left, or (with `match: 'strict'`) the request differs from the recorded one, at `path`.
 */
export class ReplayMismatchError extends ToolOrchestratorError {
  readonly source: string;
  readonly callIndex: number;
  readonly reason: 'no_recording' | 'different_request';
  readonly path: string | undefined;
  readonly recorded: unknown;
  readonly received: unknown;

  constructor(options: ReplayMismatchErrorOptions) {
    const where = `call ${options.callIndex + 1} of the replay (${options.source})`;
    super('replay_mismatch', {
      message:
        options.reason === 'no_recording'
          ? `${where} has no recording: the cassette holds ${options.recordedCalls} calls. Record the session again, or check that the run makes the same calls.`
          : `${where} differs from the recorded request at ${options.path}: recorded ${describeValue(options.recorded, 200)}, got ${describeValue(options.received, 200)}. Record the session again if the change is intended, or use match: 'sequence' to answer calls in order whatever they send.`,
    });
    this.source = options.source;
    this.callIndex = options.callIndex;
    this.reason = options.reason;
    this.path = options.path;
    this.recorded = options.recorded;
    this.received = options.received;
  }
}
