import type { ChatMessage } from '../../model/messages.js';

/** The user message that stands for the summarized turns in what is sent. */
export function summaryMessage(content: string): ChatMessage {
  return {
    role: 'user',
    content: `[Summary of the earlier part of this conversation, which was shortened to fit the context window]\n${content}`,
  };
}
