import type { Usage } from '../../model/usage.js';

/**
 * Normalises a Chat Completions `usage` object: OpenAI's `prompt_tokens_details.cached_tokens`
 * and DeepSeek's `prompt_cache_hit_tokens` become `cachedPromptTokens`, and
 * `completion_tokens_details.reasoning_tokens` becomes `reasoningTokens`. Missing counts are 0.
 * Returns `undefined` when the provider sent no usage.
 */
export function normalizeUsage(usage: unknown): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  const promptTokens = count(usage['prompt_tokens']);
  const completionTokens = count(usage['completion_tokens']);
  const promptDetails = isRecord(usage['prompt_tokens_details']) ? usage['prompt_tokens_details'] : {};
  const completionDetails = isRecord(usage['completion_tokens_details'])
    ? usage['completion_tokens_details']
    : {};
  return {
    promptTokens,
    completionTokens,
    totalTokens:
      typeof usage['total_tokens'] === 'number' ? usage['total_tokens'] : promptTokens + completionTokens,
    reasoningTokens: count(completionDetails['reasoning_tokens']),
    cachedPromptTokens: count(promptDetails['cached_tokens'] ?? usage['prompt_cache_hit_tokens']),
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** True for a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
