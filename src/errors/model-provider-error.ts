import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** The kinds of provider failure, as `code` values. */
export type ModelProviderErrorCode =
  | 'authentication'
  | 'insufficient_balance'
  | 'rate_limit'
  | 'invalid_request'
  | 'server_error'
  | 'stream_error'
  | 'empty_response'
  | 'insufficient_system_resource'
  | 'connection_error'
  | 'context_length_exceeded'
  | 'model_error';

/** Options of {@link ModelProviderError}. */
export interface ModelProviderErrorOptions {
  readonly message: string;
  readonly provider: string;
  readonly status?: number;
  readonly retryable?: boolean;
  readonly requestId?: string;
  /** The provider's own error code or type, e.g. `'invalid_api_key'`. */
  readonly providerCode?: string;
  /** Milliseconds the provider asked us to wait, from `retry-after-ms` or `retry-after`. */
  readonly retryAfterMs?: number;
  /** Seconds the provider asked us to wait; derived from `retryAfterMs` when only that is given. */
  readonly retryAfterSeconds?: number;
  /** The raw body or chunk the provider sent, for debugging. */
  readonly rawOutput?: unknown;
  readonly cause?: unknown;
}

/**
 * A model provider failed: the base of every adapter error. Carries `status`, `provider`,
 * `retryable`, the request id when the provider sent one, and the wait it asked for
 * (`retryAfterMs`).
 */
export class ModelProviderError extends ToolOrchestratorError {
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly requestId: string | undefined;
  readonly providerCode: string | undefined;
  /** Milliseconds the provider asked to wait before a retry (`retry-after-ms`, else `retry-after`). */
  readonly retryAfterMs: number | undefined;
  /** The same wait in seconds. */
  readonly retryAfterSeconds: number | undefined;
  readonly rawOutput: unknown;

  constructor(code: ModelProviderErrorCode, options: ModelProviderErrorOptions) {
    super(code, { message: options.message, cause: options.cause });
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.requestId = options.requestId;
    this.providerCode = options.providerCode;
    this.retryAfterMs =
      options.retryAfterMs ??
      (options.retryAfterSeconds === undefined ? undefined : options.retryAfterSeconds * 1000);
    this.retryAfterSeconds =
      options.retryAfterSeconds ??
      (options.retryAfterMs === undefined ? undefined : options.retryAfterMs / 1000);
    this.rawOutput = options.rawOutput;
  }
}
