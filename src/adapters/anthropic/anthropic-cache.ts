import type { JsonObject } from '../../model/messages.js';
import type { AnthropicMessage } from './anthropic-messages.js';

/** The most `cache_control` breakpoints one request may carry. */
export const maxBreakpoints = 4;

/**
 * Puts prompt-caching breakpoints on a request, in Anthropic's prefix order (tools, system,
 * messages): the last tool, the last system block, the last block of the last user message
 * before the latest assistant turn (the end of the previous request, so this one reads what it
 * wrote) and the last block of the last message (written now for the next call). At most four;
 * the blocks marked are copies, the rest are shared.
 */
export function addCacheBreakpoints(
  request: {
    readonly tools: JsonObject[];
    readonly system: JsonObject[];
    readonly messages: AnthropicMessage[];
  },
  cacheControl: JsonObject,
): void {
  const { tools, system, messages } = request;
  if (tools.length > 0) tools[tools.length - 1] = { ...tools.at(-1)!, cache_control: cacheControl };
  if (system.length > 0) system[system.length - 1] = { ...system.at(-1)!, cache_control: cacheControl };
  const used = (tools.length > 0 ? 1 : 0) + (system.length > 0 ? 1 : 0);
  const marked = new Set<number>();
  let lastAssistant = messages.length - 1;
  while (lastAssistant >= 0 && messages[lastAssistant]!.role !== 'assistant') lastAssistant -= 1;
  if (lastAssistant > 0) marked.add(lastAssistant - 1);
  if (messages.length > 0) marked.add(messages.length - 1);
  // The newest first, should a caller's breakpoints elsewhere leave fewer free.
  const indexes = [...marked].sort((left, right) => right - left).slice(0, maxBreakpoints - used);
  for (const index of indexes) {
    const message = messages[index]!;
    const content = [...message.content];
    const last = content.length - 1;
    if (last < 0 || !cacheable(content[last]!)) continue;
    content[last] = { ...content[last]!, cache_control: cacheControl };
    messages[index] = { role: message.role, content };
  }
}

/** Thinking blocks cannot carry `cache_control`; every other block a transcript holds can. */
function cacheable(block: JsonObject): boolean {
  return block['type'] !== 'thinking' && block['type'] !== 'redacted_thinking';
}
