import type { ChatMessage, ReasoningPart, ToolCall } from '../model/messages.js';
import { reasoningText } from '../model/reasoning-text.js';
import type { ModelResponse } from '../model/model-adapter.js';

/** One part of a message in the GenAI conventions' input and output message schemas. */
type MessagePart =
  | { readonly type: 'text'; readonly content: string }
  | { readonly type: 'reasoning'; readonly content: string }
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly arguments: unknown }
  | { readonly type: 'tool_call_response'; readonly id: string; readonly response: unknown };

/** `gen_ai.input.messages` as a JSON string (spans take no structured values yet). */
export function inputMessagesJson(messages: readonly ChatMessage[]): string {
  return JSON.stringify(
    messages.map((message) => {
      switch (message.role) {
        case 'tool':
          return {
            role: 'tool',
            parts: [{ type: 'tool_call_response', id: message.tool_call_id, response: message.content }],
          };
        case 'assistant':
          return { role: 'assistant', parts: assistantParts(message) };
        default:
          return {
            role: message.role,
            parts: [{ type: 'text', content: message.content }],
            ...(message.name === undefined ? {} : { name: message.name }),
          };
      }
    }),
  );
}

/** `gen_ai.output.messages` as a JSON string: the one choice a call returns. */
export function outputMessagesJson(response: ModelResponse): string {
  return JSON.stringify([
    { role: 'assistant', parts: assistantParts(response), finish_reason: response.finish_reason ?? '' },
  ]);
}

/** The conventions expect arguments as an object: parsed when they are JSON, else the raw string. */
export function parsedArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function assistantParts(message: {
  readonly content: string | null;
  readonly reasoning_content?: string | null;
  readonly reasoning?: readonly ReasoningPart[];
  readonly tool_calls?: readonly ToolCall[];
}): MessagePart[] {
  const parts: MessagePart[] = [];
  const reasoning = reasoningText(message);
  if (reasoning !== '') parts.push({ type: 'reasoning', content: reasoning });
  if (message.content !== null && message.content !== '')
    parts.push({ type: 'text', content: message.content });
  for (const toolCall of message.tool_calls ?? []) {
    parts.push({
      type: 'tool_call',
      id: toolCall.id,
      name: toolCall.function.name,
      arguments: parsedArguments(toolCall.function.arguments),
    });
  }
  return parts;
}
