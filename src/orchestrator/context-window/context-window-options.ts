import type { ChatMessage } from '../../model/messages.js';

/** What a {@link ContextStrategy} is told about the call it reduces. */
export interface ContextStrategyInfo {
  /** The estimated tokens of `messages` (the tool definitions included), corrected by the provider's counts. */
  readonly tokens: number;
  /** The budget of the messages: `maxTokens` less `reserveOutputTokens`. */
  readonly limit: number;
  /** Where the reduction should bring the context down to (the low-water mark). */
  readonly target: number;
  /** `'high_water'` before a call, `'overflow'` when the provider refused the last attempt as too long. */
  readonly reason: 'high_water' | 'overflow';
  /** Zero-based index of the model call about to be made. */
  readonly turn: number;
  readonly signal?: AbortSignal;
}

/**
 * A user reduction: gets the messages about to be sent (over the high-water mark) and returns what
 * to send instead. Only what is sent changes; the transcript stays complete. The result must keep
 * every assistant tool call answered by its tool message right after it; one that does not fails
 * the run with an `InvalidArgumentError` naming the broken call, before anything is sent.
 *
 * @example
 * // Keep the system prompt, the task and the last 30 messages (cut at a user or assistant message).
 * const lastThirty: ContextStrategy = (messages) => {
 *   let start = Math.max(2, messages.length - 30);
 *   while (messages[start]?.role === 'tool') start++;
 *   return [...messages.slice(0, 2), ...messages.slice(start)];
 * };
 */
export type ContextStrategy = (
  messages: readonly ChatMessage[],
  info: ContextStrategyInfo,
) => readonly ChatMessage[] | Promise<readonly ChatMessage[]>;

/** The built-in strategies, or your own. */
export type ContextStrategyOption = 'mask_observations' | 'summarize' | ContextStrategy;

/**
 * Keeps what each model call is sent under the model's context window. The transcript the run
 * returns stays complete; only what is sent is reduced. See docs/context-window.md.
 */
export interface ContextWindowOptions {
  /**
   * The model's context window in tokens (prompt and output together).
   * @default the adapter's `contextWindowTokens` for its model; required when the adapter does not know it
   */
  readonly maxTokens?: number;
  /** Tokens left for the model's answer. @default the smaller of 8192 and a quarter of `maxTokens` */
  readonly reserveOutputTokens?: number;
  /**
   * How to reduce: `'mask_observations'` replaces the content of older tool results with a short
   * note of how to get them again; `'summarize'` replaces the oldest turns with a summary the model
   * writes (one extra call, tools off); or your own {@link ContextStrategy}.
   * @default 'mask_observations'
   */
  readonly strategy?: ContextStrategyOption;
  /** Tool results never masked or summarized: the most recent ones. @default 10 */
  readonly keepRecent?: number;
  /**
   * Where a reduction brings the context down to, as a fraction of the limit. A reduction happens
   * only when the next call would pass the limit (the high-water mark); going down to half of it
   * leaves the sent prefix unchanged, and the provider's prompt cache warm, for many turns. `1`
   * reduces only just enough, every turn (breaking the cache every turn).
   * @default 0.5
   */
  readonly lowWaterMark?: number;
  /**
   * Counts the tokens of a text. The default is a fast estimate (`tokenx`), corrected after every
   * call by the provider's reported prompt tokens; pass an exact tokenizer for your model to start
   * closer (see docs/context-window.md).
   * @default estimateTokenCount of tokenx
   */
  readonly countTokens?: (text: string) => number;
}

/** The options of one run, resolved: every default applied. */
export interface ResolvedContextWindow {
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
  readonly strategy: ContextStrategyOption;
  readonly keepRecent: number;
  readonly lowWaterMark: number;
  readonly countTokens: (text: string) => number;
}
