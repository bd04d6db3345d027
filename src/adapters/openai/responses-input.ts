import type { AssistantMessage, ChatMessage, JsonObject, JsonValue } from '../../model/messages.js';
import { toResponsesContent } from './responses-content.js';

/** The key under which the Responses adapter keeps what OpenAI needs back. */
export const responsesDataKey = 'openai.responses';

/** The kinds of output item a turn's `order` lists, in the order OpenAI returned them. */
export type OutputItemKind = 'reasoning' | 'message' | 'function_call';

/**
 * What an assistant message keeps for the Responses API under `providerData['openai.responses']`:
 * the response's id (for `previous_response_id`), the kinds of its output items in OpenAI's order
 * (the nth `'reasoning'` is the message's nth reasoning part, the nth `'function_call'` its nth
 * tool call), and its output message items whole.
 */
export interface TurnData {
  readonly responseId?: string;
  readonly order?: readonly OutputItemKind[];
  readonly messages?: readonly JsonObject[];
}

/** What the request sends of the transcript. */
export interface ResponsesInput {
  readonly input: JsonObject[];
  /** The stored response the input follows, when chaining. */
  readonly previousResponseId?: string;
}

/** How the transcript is sent. */
export interface InputSettings {
  /** Whether OpenAI stores responses (the `store` option). */
  readonly store: boolean;
  /** Send `previous_response_id` and only what follows it (the `previousResponseId` option). */
  readonly chain: boolean;
}

/**
 * Maps the transcript to Responses `input` items. System messages stay system message items in
 * place (not `instructions`), so their position, and every later system message, is kept, and a
 * chained request inherits them with the stored response. An assistant turn is replayed as the
 * output items OpenAI returned, in its order: reasoning items whole, its message items, its
 * `function_call` items (`call_id` = the tool call id, with OpenAI's item id); a tool result
 * becomes a `function_call_output` with the same `call_id`. Only this adapter's provider data is
 * read; another API's reasoning is left out.
 */
export function toResponsesInput(messages: readonly ChatMessage[], settings: InputSettings): ResponsesInput {
  let start = 0;
  let previousResponseId: string | undefined;
  if (settings.chain) {
    for (let index = messages.length - 1; index >= 0; index--) {
      const message = messages[index]!;
      const responseId = message.role === 'assistant' ? turnData(message).responseId : undefined;
      if (responseId !== undefined) {
        previousResponseId = responseId;
        start = index + 1;
        break;
      }
    }
  }
  const input: JsonObject[] = [];
  for (let index = start; index < messages.length; index++) {
    const message = messages[index]!;
    switch (message.role) {
      case 'system':
        input.push({ role: 'system', content: message.content });
        break;
      case 'user':
        input.push({ role: 'user', content: toResponsesContent(message.content) });
        break;
      case 'tool':
        input.push({
          type: 'function_call_output',
          call_id: message.tool_call_id,
          output: toResponsesContent(message.content),
        });
        break;
      case 'assistant':
        input.push(...assistantItems(message, settings.store));
        break;
    }
  }
  return previousResponseId === undefined ? { input } : { input, previousResponseId };
}

/** The Responses data of an assistant message, or an empty record. */
export function turnData(message: AssistantMessage): TurnData {
  const data = message.providerData?.[responsesDataKey];
  if (data === undefined) return {};
  const order = Array.isArray(data['order'])
    ? data['order'].filter((kind): kind is OutputItemKind => kinds.has(kind as OutputItemKind))
    : undefined;
  const messages = Array.isArray(data['messages']) ? data['messages'].filter(isObject) : undefined;
  return {
    ...(typeof data['responseId'] === 'string' ? { responseId: data['responseId'] } : {}),
    ...(order === undefined ? {} : { order }),
    ...(messages === undefined ? {} : { messages }),
  };
}

const kinds = new Set<OutputItemKind>(['reasoning', 'message', 'function_call']);

interface Entry {
  readonly kind: OutputItemKind;
  item: JsonObject;
}

/**
 * One assistant turn as input items. OpenAI verifies a reasoning item against what it issued
 * and requires the item that followed it; a function call or message it issued after a reasoning
 * item requires that item before it. So a reasoning item that cannot be sent (no encrypted
 * content under `store: false`) or has lost its follower is dropped, and the ids of the items
 * that followed a dropped one are removed, which OpenAI accepts as new items.
 */
function assistantItems(message: AssistantMessage, store: boolean): JsonObject[] {
  const data = turnData(message);
  const reasoning: JsonObject[] = [];
  for (const part of message.reasoning ?? []) {
    const item = part.providerData?.[responsesDataKey];
    if (item !== undefined && item['type'] === 'reasoning') reasoning.push(item);
  }
  const texts = messageItems(message, data);
  const calls: JsonObject[] = (message.tool_calls ?? []).map((toolCall) => ({
    ...toolCall.providerData?.[responsesDataKey],
    type: 'function_call',
    call_id: toolCall.id,
    name: toolCall.function.name,
    arguments: toolCall.function.arguments,
  }));
  const queues: Record<OutputItemKind, JsonObject[]> = {
    reasoning,
    message: texts,
    function_call: calls,
  };
  const entries: Entry[] = [];
  for (const kind of data.order ?? []) {
    const item = queues[kind].shift();
    if (item !== undefined) entries.push({ kind, item });
  }
  // Whatever the order does not place (a turn from another adapter, an edited one) goes in the usual order.
  for (const kind of ['reasoning', 'message', 'function_call'] as const) {
    for (const item of queues[kind]) entries.push({ kind, item });
  }
  const kept: Entry[] = [];
  let droppedReasoning = false;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.kind === 'reasoning') {
      const follower = entries[index + 1];
      const sendable = store || typeof entry.item['encrypted_content'] === 'string';
      droppedReasoning = !sendable || follower === undefined || typeof follower.item['id'] !== 'string';
      if (!droppedReasoning) kept.push(entry);
      continue;
    }
    if (droppedReasoning && typeof entry.item['id'] === 'string') {
      const { id: _id, ...rest } = entry.item;
      entry.item = rest;
    }
    droppedReasoning = false;
    kept.push(entry);
  }
  return kept.map((entry) => entry.item);
}

/**
 * The turn's message items: OpenAI's own when their text is still the message's content, else
 * one new item with the content (edited by a hook or the context window), else none.
 */
function messageItems(message: AssistantMessage, data: TurnData): JsonObject[] {
  const content = message.content ?? '';
  const stored = data.messages ?? [];
  if (stored.length > 0 && stored.map(outputText).join('') === content) return [...stored];
  if (content === '') return [];
  return [{ role: 'assistant', content }];
}

/** The text of an output message item: its `output_text` parts joined. */
export function outputText(item: JsonObject): string {
  const content: JsonValue | undefined = item['content'];
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as readonly JsonValue[]) {
    if (isObject(part) && part['type'] === 'output_text' && typeof part['text'] === 'string')
      text += part['text'];
  }
  return text;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
