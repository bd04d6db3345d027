import { AuthenticationError } from '../../errors/authentication-error.js';
import { ConnectionError } from '../../errors/connection-error.js';
import { InsufficientBalanceError } from '../../errors/insufficient-balance-error.js';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ModelProviderError } from '../../errors/model-provider-error.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { ServerError } from '../../errors/server-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import { isRecord } from './normalize-usage.js';

/** Who failed, for the messages. */
export interface ProviderContext {
  readonly provider: string;
  readonly environmentVariable: string;
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
 * {@link InvalidRequestError}, 5xx {@link ServerError}, an `error` object mid-stream
 * {@link StreamError}, no response at all {@link ConnectionError}. Anything else is returned as is.
 */
export function toProviderError(error: unknown, context: ProviderContext): unknown {
  if (!(error instanceof Error) || !isClientError(error)) return error;
  const name = error.constructor.name;
  if (name === 'APIUserAbortError') return error;
  const provider = context.provider;
  if (name === 'APIConnectionError' || name === 'APIConnectionTimeoutError') {
    return new ConnectionError({
      provider,
      cause: error,
      message: `Could not reach ${provider}: ${error.message}`,
    });
  }
  const body = isRecord(error.error) ? error.error : undefined;
  const providerMessage = typeof body?.['message'] === 'string' ? body['message'] : error.message;
  const providerCode = stringOrUndefined(error.code) ?? stringOrUndefined(error.type);
  const requestId = error.requestID ?? undefined;
  const details = {
    provider,
    cause: error,
    rawOutput: error.error,
    ...(requestId === undefined ? {} : { requestId }),
    ...(providerCode === undefined ? {} : { providerCode }),
  };
  const status = error.status;
  if (status === undefined) {
    return new StreamError({
      ...details,
      message: `${provider} sent an error mid-stream: ${providerMessage}`,
    });
  }
  const withStatus = { ...details, status };
  const said = `${provider} answered ${status}: ${providerMessage}`;
  if (status === 401 || status === 403) {
    return new AuthenticationError({
      ...withStatus,
      message: `${said}. Check ${context.environmentVariable} or the apiKey option.`,
    });
  }
  if (status === 402 || (status === 429 && providerCode === 'insufficient_quota')) {
    return new InsufficientBalanceError({ ...withStatus, message: `${said}. Top up the account balance.` });
  }
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(error.headers?.get('retry-after') ?? null);
    return new RateLimitError({
      ...withStatus,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      message: `${said}. Still rate-limited after the retries; wait${retryAfterSeconds === undefined ? '' : ` ${retryAfterSeconds}s`} or raise maxRetries.`,
    });
  }
  if (status >= 500) return new ServerError({ ...withStatus, message: `${said}. Retry later.` });
  if (status === 408 || status === 409)
    return new UnexpectedResponseError({ ...withStatus, retryable: true, message: said });
  if (status >= 400)
    return new InvalidRequestError({
      ...withStatus,
      message: `${said}. Fix the request; retrying will not help.`,
    });
  return new UnexpectedResponseError({ ...withStatus, message: said });
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

function parseRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number.parseFloat(header);
  if (!Number.isNaN(seconds)) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}
