/** Token usage of one model call, or summed over a run; providers' names normalised. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /** Reasoning tokens, included in `completionTokens` (OpenAI `reasoning_tokens`). */
  readonly reasoningTokens: number;
  /** Prompt tokens served from the provider's cache (OpenAI `cached_tokens`, DeepSeek `prompt_cache_hit_tokens`). */
  readonly cachedPromptTokens: number;
}

/** Usage with every count at zero. */
export const emptyUsage: Usage = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  reasoningTokens: 0,
  cachedPromptTokens: 0,
});

/** Adds two usage records field by field; a missing record counts as zero. */
export function addUsage(total: Usage, usage: Partial<Usage> | undefined): Usage {
  if (usage === undefined) return total;
  return {
    promptTokens: total.promptTokens + (usage.promptTokens ?? 0),
    completionTokens: total.completionTokens + (usage.completionTokens ?? 0),
    totalTokens: total.totalTokens + (usage.totalTokens ?? 0),
    reasoningTokens: total.reasoningTokens + (usage.reasoningTokens ?? 0),
    cachedPromptTokens: total.cachedPromptTokens + (usage.cachedPromptTokens ?? 0),
  };
}
