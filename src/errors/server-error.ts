import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The provider failed (HTTP 5xx); thrown once the adapter's `maxRetries` is spent. Retryable.
 */
export class ServerError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('server_error', { retryable: true, ...options });
  }
}
