import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The provider throttled the request (HTTP 429). Thrown once `maxRetries` is spent, or at once when the wait it asked for (`retryAfterMs`, from `retry-after-ms` or `retry-after`) is longer than the adapter's `maxRetryDelayMs`. Retryable.
 */
export class RateLimitError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('rate_limit', { retryable: true, ...options });
  }
}
