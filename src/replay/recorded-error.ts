import { AuthenticationError } from '../errors/authentication-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ContextLengthError } from '../errors/context-length-error.js';
import { EmptyResponseError } from '../errors/empty-response-error.js';
import { InsufficientBalanceError } from '../errors/insufficient-balance-error.js';
import { InsufficientSystemResourceError } from '../errors/insufficient-system-resource-error.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { ModelProviderError } from '../errors/model-provider-error.js';
import type { ModelProviderErrorCode, ModelProviderErrorOptions } from '../errors/model-provider-error.js';
import { RateLimitError } from '../errors/rate-limit-error.js';
import { ServerError } from '../errors/server-error.js';
import { StreamError } from '../errors/stream-error.js';

/**
 * A model call's error as a cassette keeps it: its name and message, and for an adapter's
 * `ModelProviderError` its code and the fields a caller acts on, so a replay throws the same class.
 */
export interface RecordedError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly provider?: string;
  readonly status?: number;
  readonly retryable?: boolean;
  readonly requestId?: string;
  readonly providerCode?: string;
  readonly retryAfterMs?: number;
  readonly maxContextTokens?: number;
  readonly requestedTokens?: number;
  readonly origin?: string;
  readonly causeCode?: string;
}

const fields = [
  'code',
  'provider',
  'status',
  'retryable',
  'requestId',
  'providerCode',
  'retryAfterMs',
  'maxContextTokens',
  'requestedTokens',
  'origin',
  'causeCode',
] as const;

/** The error as a cassette keeps it (its raw output and cause are left out: they may hold anything). */
export function recordError(error: unknown): RecordedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const recorded: { -readonly [Key in keyof RecordedError]: RecordedError[Key] } = {
    name: error.name,
    message: error.message,
  };
  if (ModelProviderError.isInstance(error)) {
    const source = error as unknown as Record<string, unknown>;
    for (const field of fields) {
      if (source[field] !== undefined) (recorded as Record<string, unknown>)[field] = source[field];
    }
  }
  return recorded;
}

const classes: { readonly [Code in ModelProviderErrorCode]?: new (options: never) => ModelProviderError } = {
  authentication: AuthenticationError,
  insufficient_balance: InsufficientBalanceError,
  rate_limit: RateLimitError,
  invalid_request: InvalidRequestError,
  server_error: ServerError,
  stream_error: StreamError,
  empty_response: EmptyResponseError,
  insufficient_system_resource: InsufficientSystemResourceError,
  connection_error: ConnectionError,
  context_length_exceeded: ContextLengthError,
};

/**
 * The error a replayed call throws: a recorded `ModelProviderError` as its own class (a
 * `RateLimitError` stays one, with its status and wait), anything else as an `Error` of the
 * recorded name and message.
 */
export function replayError(recorded: RecordedError): Error {
  if (recorded.provider !== undefined && recorded.code !== undefined) {
    const options: Record<string, unknown> = { message: recorded.message, provider: recorded.provider };
    for (const field of fields) {
      if (field !== 'code' && recorded[field] !== undefined) options[field] = recorded[field];
    }
    const Class = classes[recorded.code as ModelProviderErrorCode];
    return Class === undefined
      ? new ModelProviderError(
          recorded.code as ModelProviderErrorCode,
          options as unknown as ModelProviderErrorOptions,
        )
      : new Class(options as never);
  }
  const error = new Error(recorded.message);
  error.name = recorded.name;
  return error;
}
