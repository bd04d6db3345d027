import { AuthenticationError } from '../../errors/authentication-error.js';
import { ContextLengthError } from '../../errors/context-length-error.js';
import { InsufficientBalanceError } from '../../errors/insufficient-balance-error.js';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ModelProviderError } from '../../errors/model-provider-error.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { ServerError } from '../../errors/server-error.js';
import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import { unreachable } from './connection-failure.js';
import { contextLengthFigures, isContextLengthRefusal } from './context-length.js';
import { isRecord } from './normalize-usage.js';

/** Who failed, for the messages, and the adapter's retry settings. */
export interface ProviderContext {
  readonly provider: string;
  readonly environmentVariable: string;
  /** The longest `retry-after` the adapter waits for; a longer one fails at once. */
  readonly maxRetryDelayMs: number;
  /** Where requests go (the client's `baseURL`): a connection error names its origin. */
  readonly baseURL?: string | undefined;
}

/** The fields of an `openai` `APIError` we read; duck-typed so an injected client of another major works. */
interface ClientError {
  readonly status?: number;
  readonly headers?: { get(name: string): string | null };
  readonly requestID?: string | null;
  readonly error?: unknown;
  readonly code?: unknown;
  readonly type?: unknown;
  readonly message: string;
}

/**
 * Maps an error thrown by the `openai` client to this library's typed errors: 401/403
 * {@link AuthenticationError}, 402 (and OpenAI's 429 `insufficient_quota`)
 * {@link InsufficientBalanceError}, 429 {@link RateLimitError}, other 4xx
 * {@link InvalidRequestError} (or {@link ContextLengthError} when it says the request is longer than
 * the model's window), 5xx {@link ServerError}, no response at all
 * `ConnectionError` naming the base URL's origin and the system's error code. `retryAfterMs` comes from `retry-after-ms`, else `retry-after`
 * (seconds or an HTTP date); `x-should-retry: true | false` overrides `retryable`, as the client
 * itself would. Anything else is returned as is.
 */
export function toProviderError(error: unknown, context: ProviderContext): unknown {
  if (!(error instanceof Error) || !isClientError(error)) return error;
  const name = error.constructor.name;
  if (name === 'APIUserAbortError') return error;
  const provider = context.provider;
  if (name === 'APIConnectionError' || name === 'APIConnectionTimeoutError') {
    return unreachable(error, provider, context.baseURL);
  }
  const body = isRecord(error.error) ? error.error : undefined;
  // Anthropic nests its error: `{ type: 'error', error: { type, message } }`.
  const nested = isRecord(body?.['error']) ? body['error'] : undefined;
  const providerMessage =
    typeof body?.['message'] === 'string'
      ? body['message']
      : typeof nested?.['message'] === 'string'
        ? nested['message']
        : error.message;
  const providerCode = stringOrUndefined(error.code) ?? stringOrUndefined(error.type);
  const requestId = error.requestID ?? undefined;
  const retryAfterMs = parseRetryAfter(error.headers);
  const shouldRetry = error.headers?.get('x-should-retry');
  const status = error.status;
  const details = {
    provider,
    cause: error,
    rawOutput: error.error,
    ...(status === undefined ? {} : { status }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(providerCode === undefined ? {} : { providerCode }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(shouldRetry === 'true' || shouldRetry === 'false' ? { retryable: shouldRetry === 'true' } : {}),
  };
  if (status === undefined) {
    return new UnexpectedResponseError({ ...details, message: `${provider} failed: ${providerMessage}` });
  }
  const said = `${provider} answered ${status}: ${providerMessage}`;
  // Waiting longer than maxRetryDelayMs is the caller's decision, not the adapter's.
  const tooLong =
    retryAfterMs !== undefined && retryAfterMs > context.maxRetryDelayMs
      ? `. It asked to wait ${describeDelay(retryAfterMs)}, longer than maxRetryDelayMs (${context.maxRetryDelayMs} ms), so the adapter did not wait: retry after error.retryAfterMs, or raise maxRetryDelayMs`
      : undefined;
  if (status === 401 || status === 403) {
    return new AuthenticationError({
      ...details,
      message: `${said}. Check ${context.environmentVariable} or the apiKey option.`,
    });
  }
  if (status === 402 || (status === 429 && providerCode === 'insufficient_quota')) {
    // Waiting does not refill an account, whatever the headers say.
    return new InsufficientBalanceError({
      ...details,
      retryable: false,
      message: `${said}. Top up the account balance.`,
    });
  }
  if (status === 429) {
    return new RateLimitError({
      ...details,
      message:
        tooLong === undefined
          ? `${said}. Still rate-limited after the retries; wait${retryAfterMs === undefined ? '' : ` ${describeDelay(retryAfterMs)}`} or raise maxRetries.`
          : `${said}${tooLong}.`,
    });
  }
  if (status >= 500) return new ServerError({ ...details, message: `${said}${tooLong ?? '. Retry later'}.` });
  if (status === 408 || status === 409)
    return new UnexpectedResponseError({
      retryable: true,
      ...details,
      message: tooLong === undefined ? said : `${said}${tooLong}.`,
    });
  if (isContextLengthRefusal(status, providerCode, `${providerMessage}\n${error.message}`)) {
    return new ContextLengthError({
      ...details,
      ...contextLengthFigures(`${providerMessage}\n${error.message}`, body),
      retryable: false,
      message: `${said}. The request is longer than the model's context window: turn on the orchestrator's contextWindow option (e.g. contextWindow: { maxTokens: 128_000 }) to keep what is sent under it, or send fewer messages (docs/context-window.md).`,
    });
  }
  if (status >= 400)
    return new InvalidRequestError({
      ...details,
      message: `${said}. Fix the request; retrying will not help.`,
    });
  return new UnexpectedResponseError({ ...details, message: said });
}

/** True when `error` is one of this library's provider errors already. */
export function isModelProviderError(error: unknown): error is ModelProviderError {
  return (
    error instanceof Error &&
    typeof (error as { provider?: unknown }).provider === 'string' &&
    'retryable' in error
  );
}

function isClientError(error: Error): error is Error & ClientError {
  return 'status' in error && 'headers' in error && 'error' in error;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The wait a response asked for, in milliseconds, read as the `openai` client reads it. */
function parseRetryAfter(headers: ClientError['headers']): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds)) return Math.max(0, milliseconds);
  const header = headers?.get('retry-after') ?? null;
  if (header === null) return undefined;
  const seconds = Number.parseFloat(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function describeDelay(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${Math.round(milliseconds / 100) / 10} s`;
}
