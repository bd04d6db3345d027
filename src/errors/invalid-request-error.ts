import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The provider refused the request as malformed (HTTP 400, 404, 422 and other 4xx); the message carries the provider's own explanation. Not retryable.
 */
export class InvalidRequestError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('invalid_request', { retryable: false, ...options });
  }
}
