import { estimateTokenCount } from 'tokenx';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';

/**
 * The default token counter: tokenx's estimate (word, punctuation and script rules, no vocabulary),
 * within a few percent of DeepSeek's tokenizer on code and prose (see docs/context-window.md).
 * The loop corrects it with the provider's reported prompt tokens after every call.
 */
export const defaultCountTokens = (text: string): number => estimateTokenCount(text);

/** Tokens the chat template adds around each message (role, separators), as OpenAI counts them. */
const perMessageTokens = 4;
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

/** The estimated tokens of the tool definitions a call sends (their JSON). */
export function toolsTokens(
  tools: readonly ModelToolDefinition[],
  countTokens: (text: string) => number,
): number {
  return tools.length === 0 ? 0 : countTokens(JSON.stringify(tools));
}
