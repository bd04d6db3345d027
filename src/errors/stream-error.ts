import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The provider sent an `error` object in the middle of a streamed response. Retryable: the caller may repeat the whole call.
 */
export class StreamError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('stream_error', { retryable: true, ...options });
  }
}
