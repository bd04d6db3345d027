import { estimateTokenCount } from 'tokenx';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';

/** Characters per token of ASCII text: code and English prose on DeepSeek's and OpenAI's tokenizers. */
export const asciiCharactersPerToken = 4;
/**
 * Texts up to this long are checked for non-ASCII characters whole; longer ones at every 64th
 * character, so a run of non-ASCII characters (a line of CJK text) that long is always seen.
 */
const checkStride = 64;
const nonAscii = /[\u0080-\uffff]/;
/** Texts up to this long are checked character by character. */
const shortText = 32;

/**
 * The default token counter, made to cost next to nothing per message: ASCII text (code, English,
 * JSON) counts as its length over 4, which is as close to DeepSeek's tokenizer as tokenx on code
 * and prose; text with other characters (CJK, Cyrillic, accents, emoji), where length says little,
 * gets tokenx's estimate (rules per word, punctuation and script). A text longer than 256
 * characters is checked for non-ASCII characters at every 64th character, not whole, so a few
 * scattered ones in a long ASCII text may go unseen (and count as ASCII, a small error); any run of
 * 64 or more is seen. The loop corrects the estimate with the provider's
 * reported prompt tokens after every call. See docs/context-window.md for how close it is.
 *
 * @example
 * estimateTokens('const answer = 42;'); // 5
 */
export function estimateTokens(text: string): number {
  return looksAscii(text) ? Math.ceil(text.length / asciiCharactersPerToken) : estimateTokenCount(text);
}

/** True when every character of `text` is ASCII (checked whole, unlike the estimate's sampling). */
export function isAscii(text: string): boolean {
  const length = text.length;
  // Short texts (names, arguments) are read character by character: cheaper than a call of a
  // regular expression.
  if (length <= shortText) {
    for (let index = 0; index < length; index++) if (text.charCodeAt(index) > 0x7f) return false;
    return true;
  }
  return !nonAscii.test(text);
}

function looksAscii(text: string): boolean {
  const length = text.length;
  if (length <= checkStride * 4) return isAscii(text);
  for (let index = checkStride >> 1; index < length; index += checkStride) {
    if (text.charCodeAt(index) > 0x7f) return false;
  }
  return true;
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
