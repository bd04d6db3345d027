import type { ChatMessage } from '../../model/messages.js';

const roles = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Says what is wrong with `messages` as a request, or `undefined` when nothing is: each must be a
 * chat message, and each assistant tool call must be answered by exactly one tool message among
 * those right after its assistant message, with no tool message answering nothing.
 */
export function pairingProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return 'is not an array of chat messages';
  let index = 0;
  while (index < messages.length) {
    const message: unknown = messages[index];
    if (typeof message !== 'object' || message === null || !roles.has((message as ChatMessage).role)) {
      return `has no chat message at index ${index}`;
    }
    const chat = message as ChatMessage;
    if (chat.role === 'tool') {
      return `has a tool message at index ${index} (tool_call_id ${JSON.stringify(chat.tool_call_id)}) that follows no assistant message calling it`;
    }
    index++;
    if (chat.role !== 'assistant' || chat.tool_calls === undefined || chat.tool_calls.length === 0) continue;
    const open = new Set(chat.tool_calls.map((toolCall) => toolCall.id));
    const assistantIndex = index - 1;
    while ((messages[index] as ChatMessage | undefined)?.role === 'tool') {
      const id = (messages[index] as { tool_call_id: unknown }).tool_call_id;
      if (typeof id !== 'string' || !open.delete(id)) {
        return `has a tool message at index ${index} (tool_call_id ${JSON.stringify(id)}) that answers no open call of the assistant message at index ${assistantIndex}`;
      }
      index++;
    }
    if (open.size > 0) {
      return `leaves the tool call ${[...open].map((id) => JSON.stringify(id)).join(', ')} of the assistant message at index ${assistantIndex} unanswered`;
    }
  }
  return undefined;
}
