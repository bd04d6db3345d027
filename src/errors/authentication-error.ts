import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The provider rejected the credentials (HTTP 401 or 403): check the API key and its permissions. Not retryable.
 */
export class AuthenticationError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('authentication', { retryable: false, ...options });
  }
}
