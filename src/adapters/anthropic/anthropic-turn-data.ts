import type { AssistantMessage, JsonObject, JsonValue } from '../../model/messages.js';

/** The key under which the Anthropic adapter keeps what Claude needs back. */
export const anthropicDataKey = 'anthropic.messages';

/**
 * The kinds of content block a turn's `order` lists, in Claude's order: `'thinking'` (a thinking
 * or redacted-thinking block, kept whole in the nth reasoning part), `'text'`, `'tool_use'` (the
 * nth tool call) and `'other'` (a block the message model has no place for, such as a server
 * tool's, kept whole).
 */
export type BlockKind = 'thinking' | 'text' | 'tool_use' | 'other';

/**
 * What an assistant message keeps for the Messages API under `providerData['anthropic.messages']`:
 * the message id, the kinds of its content blocks in Claude's order, its text blocks whole (with
 * their citations) and the blocks of no other kind.
 */
export interface TurnData {
  readonly id?: string;
  readonly order?: readonly BlockKind[];
  readonly texts?: readonly JsonObject[];
  readonly others?: readonly JsonObject[];
}

const kinds = new Set<string>(['thinking', 'text', 'tool_use', 'other']);

/** The Anthropic data of an assistant message, or an empty record. */
export function turnData(message: AssistantMessage): TurnData {
  const data = message.providerData?.[anthropicDataKey];
  if (data === undefined) return {};
  const order = Array.isArray(data['order'])
    ? (data['order'] as readonly JsonValue[]).filter(
        (kind): kind is BlockKind => typeof kind === 'string' && kinds.has(kind),
      )
    : undefined;
  const blocks = (value: JsonValue | undefined): JsonObject[] | undefined =>
    Array.isArray(value) ? (value as readonly JsonValue[]).filter(isObject) : undefined;
  const texts = blocks(data['texts']);
  const others = blocks(data['others']);
  return {
    ...(typeof data['id'] === 'string' ? { id: data['id'] } : {}),
    ...(order === undefined ? {} : { order }),
    ...(texts === undefined ? {} : { texts }),
    ...(others === undefined ? {} : { others }),
  };
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
