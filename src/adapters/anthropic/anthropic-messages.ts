import type { AssistantMessage, ChatMessage, JsonObject, ToolMessage } from '../../model/messages.js';
import { toAnthropicBlocks } from './anthropic-content.js';
import { anthropicDataKey, turnData } from './anthropic-turn-data.js';
import type { BlockKind } from './anthropic-turn-data.js';

/** A Messages API message: a role and its content blocks. */
export interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  readonly content: JsonObject[];
}

/** The transcript as the Messages API takes it. */
export interface AnthropicTranscript {
  /** The system messages' texts, in order, as `text` blocks. */
  readonly system: JsonObject[];
  readonly messages: AnthropicMessage[];
}

/**
 * Maps the transcript to `system` and `messages`. System messages go to `system`, joined in
 * order. A user message becomes a user message of text, image and document blocks. An assistant
 * message is replayed as the blocks Claude returned, in its order: thinking and redacted-thinking
 * blocks whole (signature included), text, `tool_use` (`id` = the tool call id, `input` = the
 * parsed arguments). Tool results become `tool_result` blocks, with `is_error: true` for a tool
 * error. The API wants roles to alternate, so adjacent messages of one role are merged: all the
 * results of a turn make one user message, in call order, before any text that follows them.
 *
 * @throws {InvalidArgumentError} for an image or file Claude cannot read.
 */
export function toAnthropicTranscript(transcript: readonly ChatMessage[]): AnthropicTranscript {
  const system: JsonObject[] = [];
  const messages: AnthropicMessage[] = [];
  const append = (role: AnthropicMessage['role'], content: JsonObject[]): void => {
    if (content.length === 0) return;
    const last = messages.at(-1);
    if (last !== undefined && last.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  for (const [index, message] of transcript.entries()) {
    switch (message.role) {
      case 'system':
        if (message.content !== '') system.push({ type: 'text', text: message.content });
        break;
      case 'user':
        append('user', toAnthropicBlocks(message.content, `messages[${index}].content`));
        break;
      case 'tool':
        append('user', [toolResult(message, index)]);
        break;
      case 'assistant':
        append('assistant', assistantBlocks(message));
        break;
    }
  }
  // Tool results go first in a user message: text a user message added after them stays after them.
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const results = message.content.filter((block) => block['type'] === 'tool_result');
    if (results.length === 0 || results.length === message.content.length) continue;
    message.content.splice(
      0,
      message.content.length,
      ...results,
      ...message.content.filter((block) => block['type'] !== 'tool_result'),
    );
  }
  return { system, messages };
}

/** A `tool_result` block: the result's content, and `is_error` when the loop answered with a tool error. */
function toolResult(message: ToolMessage, index: number): JsonObject {
  const content =
    typeof message.content === 'string'
      ? message.content
      : toAnthropicBlocks(message.content, `messages[${index}].content`);
  return {
    type: 'tool_result',
    tool_use_id: message.tool_call_id,
    ...(content === '' || content.length === 0 ? {} : { content }),
    ...(isToolError(message.content) ? { is_error: true } : {}),
  };
}

/** True for the loop's tool error content, `{"error":"..."}` (see `errorContent`). */
function isToolError(content: ToolMessage['content']): boolean {
  if (typeof content !== 'string' || !content.startsWith('{"error":')) return false;
  try {
    const parsed: unknown = JSON.parse(content);
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      Object.keys(parsed).length === 1 &&
      typeof (parsed as { error?: unknown }).error === 'string'
    );
  } catch {
    return false;
  }
}

/**
 * One assistant turn's blocks in Claude's order (the turn's `order`); blocks the order does not
 * place (a turn from another adapter, an edited one) follow in the usual order: thinking, text,
 * tool use. Reasoning of another API is left out.
 */
function assistantBlocks(message: AssistantMessage): JsonObject[] {
  const data = turnData(message);
  const thinking: JsonObject[] = [];
  for (const part of message.reasoning ?? []) {
    const block = part.providerData?.[anthropicDataKey];
    if (block !== undefined && (block['type'] === 'thinking' || block['type'] === 'redacted_thinking'))
      thinking.push(block);
  }
  const toolUses = (message.tool_calls ?? []).map((toolCall): JsonObject => ({
    type: 'tool_use',
    id: toolCall.id,
    name: toolCall.function.name,
    input: parseInput(toolCall.function.arguments),
  }));
  const queues: Record<BlockKind, JsonObject[]> = {
    thinking,
    text: textBlocks(message, data.texts ?? []),
    tool_use: toolUses,
    other: [...(data.others ?? [])],
  };
  const blocks: JsonObject[] = [];
  for (const kind of data.order ?? []) {
    const block = queues[kind].shift();
    if (block !== undefined) blocks.push(block);
  }
  for (const kind of ['thinking', 'other', 'text', 'tool_use'] as const) blocks.push(...queues[kind]);
  return blocks;
}

/** Claude's own text blocks while their text is still the message's content, else one new block (none when empty). */
function textBlocks(message: AssistantMessage, stored: readonly JsonObject[]): JsonObject[] {
  const content = message.content ?? '';
  const storedText = stored.map((block) => (typeof block['text'] === 'string' ? block['text'] : '')).join('');
  if (stored.length > 0 && storedText === content) return [...stored];
  return content === '' ? [] : [{ type: 'text', text: content }];
}

/** A tool call's arguments as `tool_use` input: the parsed object, or `{}` when they are not a JSON object (a cut-off call). */
function parseInput(text: string): JsonObject {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as JsonObject)
      : {};
  } catch {
    return {};
  }
}
