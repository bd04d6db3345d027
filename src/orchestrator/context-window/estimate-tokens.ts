import { estimateTokenCount } from 'tokenx';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';

/** Characters per token of ASCII and Latin-1 text: code, English and Western European prose on DeepSeek's and OpenAI's tokenizers. */
export const charactersPerToken = 4;
/**
 * Characters above U+00FF. Text without any (ASCII, and the Latin-1 letters of Western European
 * languages) is usually stored one byte per character, and V8 then answers this search without
 * reading it (a slice of a text that has some is stored two bytes per character, and is read).
 */
const beyondLatin1 = /[\u0100-\uffff]/;
/** Texts up to this long are checked character by character. */
const shortText = 32;

/**
 * The default token counter. A text whose characters are all at most U+00FF (code, English, JSON,
 * the accented letters of Western European languages) counts as its length over 4, rounded up;
 * any other text (CJK, Cyrillic, Greek, emoji, or a single typographic dash) gets tokenx's
 * estimate (rules per word, punctuation and script). The loop corrects the estimate with the
 * provider's reported prompt tokens after every call. See docs/context-window.md for how close it is.
 *
 * @example
 * estimateTokens('const answer = 42;'); // 5
 */
export function estimateTokens(text: string): number {
  return isLatin1(text) ? Math.ceil(text.length / charactersPerToken) : estimateTokenCount(text);
}

/** True when no character of `text` is above U+00FF. */
export function isLatin1(text: string): boolean {
  const length = text.length;
  // Short texts (names, arguments) are read character by character: cheaper than a call of a
  // regular expression.
  if (length <= shortText) {
    for (let index = 0; index < length; index++) if (text.charCodeAt(index) > 0xff) return false;
    return true;
  }
  return !beyondLatin1.test(text);
}

/** The default `countTokens`: {@link estimateTokens}. */
export const defaultCountTokens = estimateTokens;

/** Tokens the chat template adds around each message (role, separators), as OpenAI counts them. */
export const perMessageTokens = 4;
/** Tokens around each tool call in an assistant message (id, type, braces). */
const perToolCallTokens = 8;

/** The estimated tokens of one message as sent: its content, tool calls and template overhead. */
export function messageTokens(message: ChatMessage, countTokens: (text: string) => number): number {
  let tokens = perMessageTokens;
  const content = message.content;
  if (typeof content === 'string' && content !== '') tokens += countTokens(content);
  if (message.role === 'assistant') {
    for (const toolCall of message.tool_calls ?? []) {
      tokens += perToolCallTokens + countTokens(toolCall.function.name);
      tokens += countTokens(toolCall.function.arguments);
    }
    // Replayed by the DeepSeek adapter in thinking mode; counted as sent so the estimate errs high.
    const reasoning = message.reasoning_content;
    if (typeof reasoning === 'string' && reasoning !== '') tokens += countTokens(reasoning);
  }
  return tokens;
}

/** Counts of tool lists, kept across runs: an orchestrator sends the same list on every call. */
const toolsCounts = new WeakMap<
  readonly ModelToolDefinition[],
  { readonly countTokens: (text: string) => number; readonly tokens: number }
>();

/** The estimated tokens of the tool definitions a call sends (their JSON), counted once per list and counter. */
export function toolsTokens(
  tools: readonly ModelToolDefinition[],
  countTokens: (text: string) => number,
): number {
  if (tools.length === 0) return 0;
  const counted = toolsCounts.get(tools);
  if (counted !== undefined && counted.countTokens === countTokens) return counted.tokens;
  const tokens = countTokens(JSON.stringify(tools));
  toolsCounts.set(tools, { countTokens, tokens });
  return tokens;
}
