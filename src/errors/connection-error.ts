import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The connection failed: refused, reset (before or in the middle of the body or stream), or the whole response did not arrive within the adapter's `timeout`. The adapters retry it within `maxRetries` while a stream has emitted nothing. Retryable.
 */
export class ConnectionError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('connection_error', { retryable: true, ...options });
  }
}
