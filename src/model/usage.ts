/** Token usage of one model call, or summed over a run; providers' names normalised. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /** Reasoning tokens, included in `completionTokens` (OpenAI `reasoning_tokens`). */
  readonly reasoningTokens: number;
  /** Prompt tokens served from the provider's cache (OpenAI `cached_tokens`, DeepSeek `prompt_cache_hit_tokens`, Anthropic `cache_read_input_tokens`). */
  readonly cachedPromptTokens: number;
  /**
   * Prompt tokens written to the provider's cache, included in `promptTokens` and priced apart
   * (Anthropic `cache_creation_input_tokens`); absent for providers that do not report them.
   */
  readonly cacheWriteTokens?: number;
}

/** Usage with every count at zero. */
export const emptyUsage: Usage = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  reasoningTokens: 0,
  cachedPromptTokens: 0,
});

/**
 * Adds two usage records field by field (`cacheWriteTokens` only once either has it). A missing record, and a count that is not a finite
 * number (an adapter outside its contract), count as zero, so a sum never turns into a string.
 */
export function addUsage(total: Usage, usage: Partial<Usage> | null | undefined): Usage {
  if (typeof usage !== 'object' || usage === null) return total;
  const cacheWriteTokens =
    total.cacheWriteTokens === undefined && usage.cacheWriteTokens === undefined
      ? {}
      : { cacheWriteTokens: count(total.cacheWriteTokens) + count(usage.cacheWriteTokens) };
  return {
    promptTokens: total.promptTokens + count(usage.promptTokens),
    completionTokens: total.completionTokens + count(usage.completionTokens),
    totalTokens: total.totalTokens + count(usage.totalTokens),
    reasoningTokens: total.reasoningTokens + count(usage.reasoningTokens),
    cachedPromptTokens: total.cachedPromptTokens + count(usage.cachedPromptTokens),
    ...cacheWriteTokens,
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
