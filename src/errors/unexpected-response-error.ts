import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The provider answered with a body that is not a chat completion: not JSON, a stream event
 * that is not JSON, a 200 with an `error` body, or an HTTP status without a more specific error
 * class. `rawOutput` holds what arrived.
 * Not retryable unless the status says so.
 */
export class UnexpectedResponseError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('model_error', { retryable: false, ...options });
  }
}
