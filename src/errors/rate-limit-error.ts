import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The provider throttled the request (HTTP 429) after the client's own retries; `retryAfterSeconds` holds its `retry-after` header when sent. Retryable.
 */
export class RateLimitError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('rate_limit', { retryable: true, ...options });
  }
}
