import { ConnectionError } from '../../errors/connection-error.js';
import { abortReason, sleep } from './abort-reason.js';
import type { AttemptDeadline } from './attempt-deadline.js';
import { originOf } from './connection-failure.js';
import { isModelProviderError, toProviderError } from './to-provider-error.js';

/** What an adapter's retries need to know. */
export interface RetrySettings {
  readonly provider: string;
  /** The provider's API key variable, named in an authentication error. */
  readonly environmentVariable: string;
  /** Where requests go, when known: a connection error names its origin. */
  readonly baseURL: string | undefined;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  readonly retryBaseDelayMs: number;
}

/**
 * The error one failed HTTP attempt ends with: the abort reason when the caller aborted, a
 * retryable `ConnectionError` when the attempt's deadline passed, else the client's error mapped
 * to this library's typed errors (already typed errors pass through).
 */
export function attemptFailure(
  error: unknown,
  signal: AbortSignal | undefined,
  attempt: AttemptDeadline,
  kind: 'call' | 'stream',
  settings: RetrySettings,
): unknown {
  if (signal?.aborted === true) return abortReason(signal);
  if (attempt.timedOut) {
    const what =
      kind === 'call'
        ? `did not finish its response within the timeout (${attempt.timeoutMs} ms)`
        : `sent no stream chunk within the timeout (${attempt.timeoutMs} ms)`;
    const origin = originOf(settings.baseURL);
    return new ConnectionError({
      provider: settings.provider,
      cause: error,
      ...(origin === undefined ? {} : { origin }),
      message: `${settings.provider}${origin === undefined ? '' : ` at ${origin}`} ${what}. Raise the timeout option (the client's, when you inject one), or check the server.`,
    });
  }
  if (isModelProviderError(error)) return error;
  return toProviderError(error, settings);
}

/**
 * Waits before retry number `retry + 1`, or throws `failure` when it is not retryable, the
 * budget is spent, or the server asked for a wait longer than `maxRetryDelayMs`. The wait ends
 * at once when `signal` aborts. Without a wait from the server it backs off as the `openai`
 * client does: doubling from `retryBaseDelayMs`, at most 8 s, less up to 25 % jitter.
 */
export async function waitToRetry(
  failure: unknown,
  retry: number,
  signal: AbortSignal | undefined,
  settings: RetrySettings,
): Promise<void> {
  if (!isModelProviderError(failure) || !failure.retryable || retry >= settings.maxRetries) throw failure;
  const requested = failure.retryAfterMs;
  if (requested !== undefined && requested > settings.maxRetryDelayMs) throw failure;
  const backoff = Math.min(settings.retryBaseDelayMs * 2 ** retry, 8000, settings.maxRetryDelayMs);
  await sleep(requested ?? backoff * (1 - Math.random() * 0.25), signal);
}
