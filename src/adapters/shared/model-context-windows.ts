/**
 * Context windows of well-known models, by name prefix (the longest matching prefix wins), as
 * their providers publish them. A name not listed has no known window: pass `contextWindowTokens`
 * to the adapter or `maxTokens` to `contextWindow`.
 */
const windows: readonly (readonly [prefix: string, tokens: number])[] = [
  // DeepSeek: the V4 models (1M), and the V3.x names deepseek-chat and deepseek-reasoner (128K).
  ['deepseek-v4', 1_048_576],
  ['deepseek-chat', 131_072],
  ['deepseek-reasoner', 131_072],
  // OpenAI.
  ['gpt-5', 400_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['gpt-3.5-turbo', 16_385],
  // Anthropic: every Claude 3.5, 3.7 and 4.x model (a 1M window is a beta to ask for).
  // Google: Gemini 2.5 and 3.x.
  ['gemini-3', 1_048_576],
  ['gemini-2.5', 1_048_576],
  ['claude-opus-4', 200_000],
  ['claude-sonnet-4', 200_000],
  ['claude-haiku-4', 200_000],
  ['claude-3-7-sonnet', 200_000],
  ['claude-3-5-sonnet', 200_000],
  ['claude-3-5-haiku', 200_000],
];

/** The context window of `model` in tokens, when it is a well-known model. */
export function knownContextWindow(model: string): number | undefined {
  let best: readonly [string, number] | undefined;
  for (const entry of windows) {
    if (model.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}
