import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The provider answered 200 with a blank body or no choice, or a stream that ended without a single chunk (the message names the content type when it was not an event stream). The adapters retry it within `maxRetries`; this is thrown once the budget is spent. Retryable.
 */
export class EmptyResponseError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('empty_response', { retryable: true, ...options });
  }
}
