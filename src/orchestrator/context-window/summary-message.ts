import type { ChatMessage } from '../../model/messages.js';

const summaryMessages = new Map<string, ChatMessage>();

/** The user message that stands for the summarized turns; one object per summary text. */
export function summaryMessage(content: string): ChatMessage {
  let message = summaryMessages.get(content);
  if (message === undefined) {
    message = {
      role: 'user',
      content: `[Summary of the earlier part of this conversation, which was shortened to fit the context window]\n${content}`,
    };
    summaryMessages.clear();
    summaryMessages.set(content, message);
  }
  return message;
}
