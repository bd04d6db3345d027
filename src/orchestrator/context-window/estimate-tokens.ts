import { estimateTokenCount } from 'tokenx';
import { base64Bytes } from '../../model/content-parts.js';
import type { ChatMessage, ContentPart } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';

/** Characters per token of ASCII and Latin-1 text: code, English and Western European prose on DeepSeek's and OpenAI's tokenizers. */
const charactersPerToken = 4;

/** Any character above U+00FF (the end of Latin-1). */
const beyondLatin1 = /[\u0100-\uffff]/;

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
  return beyondLatin1.test(text) ? estimateTokenCount(text) : Math.ceil(text.length / charactersPerToken);
}

/** The default `countTokens`: {@link estimateTokens}. */
export const defaultCountTokens = estimateTokens;

/** Tokens the chat template adds around each message (role, separators), as OpenAI counts them. */
const perMessageTokens = 4;
/** Tokens around each tool call in an assistant message (id, type, braces). */
const perToolCallTokens = 8;
/**
 * The estimate of one image, whatever its size: its dimensions are not read (that would mean
 * decoding it), and providers count from about 85 to about 1,600 tokens an image; this errs a
 * little high for a screenshot, and the provider's count corrects it after the call.
 */
export const imageTokens = 1000;

/**
 * The estimated tokens of one message as sent: its content, tool calls and template overhead. Of
 * content parts, a text counts by `countTokens`, an image {@link imageTokens}, a file in base64
 * its decoded bytes over 4 (as that many characters of text would), a file by URL {@link imageTokens}.
 */
export function messageTokens(message: ChatMessage, countTokens: (text: string) => number): number {
  let tokens = perMessageTokens;
  const content = message.content;
  if (typeof content === 'string') {
    if (content !== '') tokens += countTokens(content);
  } else if (content !== null) {
    for (const part of content) tokens += partTokens(part, countTokens);
  }
  if (message.role === 'assistant') {
    for (const toolCall of message.tool_calls ?? []) {
      tokens += perToolCallTokens + countTokens(toolCall.function.name);
      tokens += countTokens(toolCall.function.arguments);
    }
    // Replayed by the DeepSeek adapter in thinking mode; counted as sent so the estimate errs high.
    const reasoning = message.reasoning_content;
    if (typeof reasoning === 'string' && reasoning !== '') tokens += countTokens(reasoning);
    // Reasoning parts by their text: what is opaque (encrypted, signed) is the provider's to count.
    for (const part of message.reasoning ?? []) if (part.text !== undefined) tokens += countTokens(part.text);
  }
  return tokens;
}

function partTokens(part: ContentPart, countTokens: (text: string) => number): number {
  if (part.type === 'text') return part.text === '' ? 0 : countTokens(part.text);
  if (part.type === 'image' || !('data' in part)) return imageTokens;
  return Math.ceil(base64Bytes(part.data) / charactersPerToken);
}

/** The estimated tokens of the tool definitions a call sends (their JSON). */
export function toolsTokens(
  tools: readonly ModelToolDefinition[],
  countTokens: (text: string) => number,
): number {
  return tools.length === 0 ? 0 : countTokens(JSON.stringify(tools));
}
