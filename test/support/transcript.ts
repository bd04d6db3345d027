import { expect } from 'vitest';
import type { ChatMessage, MessageContent, TraceEvent } from '../../src/index.js';

/**
 * Asserts that `messages` could be sent to a provider as they are: every assistant tool call has
 * a string id (unique in the transcript), a string name and string arguments, and is answered by
 * exactly one tool message right after its assistant message; no tool message answers nothing.
 */
export function expectValidTranscript(messages: readonly ChatMessage[]): void {
  const seen = new Set<string>();
  let index = 0;
  while (index < messages.length) {
    const message = messages[index]!;
    index++;
    expect(message.role, `message ${index - 1} is a tool message with no tool call before it`).not.toBe(
      'tool',
    );
    if (message.role !== 'assistant' || message.tool_calls === undefined) continue;
    const ids = message.tool_calls.map((toolCall) => {
      expect(typeof toolCall.id).toBe('string');
      expect(typeof toolCall.function.name).toBe('string');
      expect(typeof toolCall.function.arguments).toBe('string');
      expect(seen.has(toolCall.id), `tool call id ${toolCall.id} is used twice`).toBe(false);
      seen.add(toolCall.id);
      return toolCall.id;
    });
    const answers: string[] = [];
    while (messages[index]?.role === 'tool') {
      answers.push((messages[index] as { tool_call_id: string }).tool_call_id);
      index++;
    }
    expect(answers).toEqual(ids);
  }
}

/** Asserts that every `tool_call` event is followed by exactly one `tool_result` for the same id, and `seq` counts up from 0. */
export function expectPairedToolEvents(traces: readonly TraceEvent[]): void {
  const open = new Set<string>();
  const answered = new Set<string>();
  traces.forEach((event, index) => {
    expect(event.seq).toBe(index);
    if (event.type === 'tool_call') open.add(event.data.toolCall.id);
    if (event.type === 'tool_result') {
      expect(open.has(event.data.toolCallId), `tool_result ${event.data.toolCallId} has no tool_call`).toBe(
        true,
      );
      expect(answered.has(event.data.toolCallId)).toBe(false);
      open.delete(event.data.toolCallId);
      answered.add(event.data.toolCallId);
    }
  });
  expect([...open], 'tool_call events without a tool_result').toEqual([]);
}

/** The content of a message that must hold a string (not content parts): asserted, then returned. */
export function textContent(content: MessageContent | null): string {
  if (typeof content !== 'string') expect.fail(`expected string content, got ${JSON.stringify(content)}`);
  return content;
}
