import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/** Options of {@link ContextLengthError}. */
export interface ContextLengthErrorOptions extends ModelProviderErrorOptions {
  /** The model's context window, when the provider's message names it. */
  readonly maxContextTokens?: number;
  /** The tokens the request came to, when the provider's message names them. */
  readonly requestedTokens?: number;
}

/**
 * The request is longer than the model's context window (OpenAI `context_length_exceeded`,
 * DeepSeek's "maximum context length" 400, a local server's equivalent). Not retryable as it is:
 * with the orchestrator's `contextWindow` on, the loop reduces what it sends and retries once;
 * without it, turn it on (docs/context-window.md).
 */
export class ContextLengthError extends ModelProviderError {
  readonly maxContextTokens: number | undefined;
  readonly requestedTokens: number | undefined;

  constructor(options: ContextLengthErrorOptions) {
    super('context_length_exceeded', { retryable: false, ...options });
    this.maxContextTokens = options.maxContextTokens;
    this.requestedTokens = options.requestedTokens;
  }

  /** True for a `ContextLengthError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is ContextLengthError {
    return ModelProviderError.isInstance(value) && value.code === 'context_length_exceeded';
  }
}
