import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The HTTP request failed or timed out before a response arrived, after the client's own retries. Retryable.
 */
export class ConnectionError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('connection_error', { retryable: true, ...options });
  }
}
