import { describeMediaPart } from '../model/content-parts.js';
import type { ChatMessage, MessageContent, ReasoningPart, ToolCall } from '../model/messages.js';
import { reasoningText } from '../model/reasoning-text.js';
import type { ModelResponse } from '../model/model-adapter.js';

/** One part of a message in the GenAI conventions' input and output message schemas. */
type MessagePart =
  | { readonly type: 'text'; readonly content: string }
  | { readonly type: 'reasoning'; readonly content: string }
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly arguments: unknown }
  | { readonly type: 'tool_call_response'; readonly id: string; readonly response: unknown }
  | { readonly type: 'uri'; readonly modality: string; readonly mime_type?: string; readonly uri: string };

/**
 * Content as GenAI parts: texts as text parts, an image or file at an `https:` URL as a `uri`
 * part, and one given as base64 data (or a `data:` URL) as a text part that describes it
 * (`[image: image/png, 12 KB]`): a span attribute never carries the bytes.
 */
function contentParts(content: MessageContent): MessagePart[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  return content.map((part): MessagePart => {
    if (part.type === 'text') return { type: 'text', content: part.text };
    if ('data' in part || part.url.startsWith('data:'))
      return { type: 'text', content: describeMediaPart(part) };
    return {
      type: 'uri',
      modality: part.type === 'image' ? 'image' : 'file',
      ...(part.mediaType === undefined ? {} : { mime_type: part.mediaType }),
      uri: part.url,
    };
  });
}

/** `gen_ai.input.messages` as a JSON string (spans take no structured values yet). */
export function inputMessagesJson(messages: readonly ChatMessage[]): string {
  return JSON.stringify(
    messages.map((message) => {
      switch (message.role) {
        case 'tool':
          return {
            role: 'tool',
            parts: [
              {
                type: 'tool_call_response',
                id: message.tool_call_id,
                response:
                  typeof message.content === 'string' ? message.content : contentParts(message.content),
              },
            ],
          };
        case 'assistant':
          return { role: 'assistant', parts: assistantParts(message) };
        default:
          return {
            role: message.role,
            parts: contentParts(message.content),
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
