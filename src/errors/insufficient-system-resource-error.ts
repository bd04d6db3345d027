import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/**
 * DeepSeek stopped generating with `finish_reason: 'insufficient_system_resource'` (its servers were overloaded). The adapters retry it within `maxRetries`; this is thrown once the budget is spent, or mid-stream after deltas were already emitted. Retryable.
 */
export class InsufficientSystemResourceError extends ModelProviderError {
  constructor(options: ModelProviderErrorOptions) {
    super('insufficient_system_resource', { retryable: true, ...options });
  }
}
