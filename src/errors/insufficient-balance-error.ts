import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * The account has no credit left (DeepSeek HTTP 402, OpenAI 429 `insufficient_quota`): top up the balance. Not retryable.
 */
export class InsufficientBalanceError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('insufficient_balance', { retryable: false, ...options });
  }
}
