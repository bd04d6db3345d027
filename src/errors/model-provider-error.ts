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
  /** Seconds the provider asked us to wait, from `retry-after`. */
  readonly retryAfterSeconds?: number;
  /** The raw body or chunk the provider sent, for debugging. */
  readonly rawOutput?: unknown;
  readonly cause?: unknown;
}

/**
 * A model provider failed: the base of every adapter error. Carries `status`, `provider`,
 * `retryable` and the request id when the provider sent one.
 */
export class ModelProviderError extends ToolOrchestratorError {
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly requestId: string | undefined;
  readonly providerCode: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly rawOutput: unknown;

  constructor(code: ModelProviderErrorCode, options: ModelProviderErrorOptions) {
    super(code, { message: options.message, cause: options.cause });
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.requestId = options.requestId;
    this.providerCode = options.providerCode;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.rawOutput = options.rawOutput;
  }
}
