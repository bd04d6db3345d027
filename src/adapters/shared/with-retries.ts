import type { ModelStreamEvent } from '../../model/model-adapter.js';
import { abortReason } from './abort-reason.js';
import { startAttemptDeadline } from './attempt-deadline.js';
import type { AttemptDeadline } from './attempt-deadline.js';
import { attemptFailure, waitToRetry } from './retry-policy.js';
import type { RetrySettings } from './retry-policy.js';

/** What every attempt of one call or stream shares. */
export interface AttemptsOptions {
  /** The caller's signal: aborting it ends the attempt in flight and the wait before the next. */
  readonly signal: AbortSignal | undefined;
  /** Each attempt's deadline in milliseconds (the client's `timeout`). */
  readonly timeoutMs: number;
  readonly settings: RetrySettings;
}

/**
 * Runs `attempt` until one resolves: each under its own deadline, a failure mapped to a typed
 * error by `attemptFailure` and retried as `waitToRetry` allows.
 */
export async function callWithRetries<Result>(
  options: AttemptsOptions,
  attempt: (deadline: AttemptDeadline) => Promise<Result>,
): Promise<Result> {
  const { signal, settings } = options;
  for (let retry = 0; ; retry += 1) {
    const deadline = startAttemptDeadline(signal, options.timeoutMs);
    let failure: unknown;
    try {
      return await attempt(deadline);
    } catch (error) {
      failure = attemptFailure(error, signal, deadline, 'call', settings);
      deadline.abandon();
    } finally {
      deadline.dispose();
    }
    await waitToRetry(failure, retry, signal, settings);
  }
}

/**
 * Yields the events of `attempt`, retried like {@link callWithRetries} until a delta is out: a
 * delta already yielded cannot be taken back, so a failure after one is thrown, not retried. When
 * the caller aborts, the stream ends by throwing the signal's reason.
 */
export async function* streamWithRetries(
  options: AttemptsOptions,
  attempt: (deadline: AttemptDeadline) => AsyncIterable<ModelStreamEvent>,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { signal, settings } = options;
  for (let retry = 0; ; retry += 1) {
    const deadline = startAttemptDeadline(signal, options.timeoutMs);
    let emitted = false;
    let failure: unknown;
    try {
      for await (const event of attempt(deadline)) {
        emitted ||= event.type !== 'response';
        yield event;
      }
      if (signal?.aborted === true) throw abortReason(signal);
      return;
    } catch (error) {
      failure = attemptFailure(error, signal, deadline, 'stream', settings);
      deadline.abandon();
    } finally {
      deadline.dispose();
    }
    if (emitted) throw failure;
    await waitToRetry(failure, retry, signal, settings);
  }
}
