import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * A streamed response failed: the provider sent an `error` object, or the stream ended without a `finish_reason` and without `[DONE]` (truncated; `rawOutput` then holds the partial response). The adapters retry it within `maxRetries` while the stream has emitted nothing. Retryable: the caller may repeat the whole call.
 */
export class StreamError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('stream_error', { retryable: true, ...options });
  }
}
