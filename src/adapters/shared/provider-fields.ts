import type { JsonObject, JsonValue, ProviderData } from '../../model/messages.js';

/**
 * Fields of an assistant message (or its stream delta) that are not kept as provider data: those
 * the transcript already holds; those OpenAI documents on `ChatCompletionMessage` as output only
 * (`refusal`, `annotations`, `audio`, the deprecated `function_call`); and `reasoning`, the
 * reasoning text Groq, vLLM and OpenRouter return, which Groq answers 400 to when it comes back
 * ("property 'reasoning' is unsupported") and OpenRouter verifies through `reasoning_details`
 * instead. Every other field a compatible server adds is the provider's, and goes back with the
 * message.
 */
const knownMessageFields: ReadonlySet<string> = new Set([
  'role',
  'content',
  'tool_calls',
  'reasoning_content',
  'refusal',
  'annotations',
  'audio',
  'function_call',
  'reasoning',
]);

/** Fields of a tool call (or its stream fragment) that `ToolCall` already holds. */
const knownToolCallFields: ReadonlySet<string> = new Set(['id', 'type', 'function', 'index']);

/**
 * The fields of a provider's assistant message that have no place in the transcript (an
 * OpenAI-compatible gateway's `extra_content`, OpenRouter's `reasoning_details`), or `undefined`
 * when there are none. A `null` field carries nothing to send back and is left out.
 */
export function unknownMessageFields(message: Record<string, unknown>): JsonObject | undefined {
  return unknownFields(message, knownMessageFields);
}

/**
 * The fields of a provider's tool call that `ToolCall` has no place for (Gemini's
 * `extra_content.google.thought_signature`), or `undefined` when there are none.
 */
export function unknownToolCallFields(toolCall: Record<string, unknown>): JsonObject | undefined {
  return unknownFields(toolCall, knownToolCallFields);
}

/**
 * Adds the unknown fields of one stream delta to those gathered so far: a field streamed in
 * pieces is put together as its pieces allow (strings and arrays are concatenated, as
 * `reasoning_details` arrives), any other value replaces the one before.
 */
export function mergeStreamedFields(
  gathered: Record<string, JsonValue> | undefined,
  delta: JsonObject | undefined,
): Record<string, JsonValue> | undefined {
  if (delta === undefined) return gathered;
  const merged = gathered ?? {};
  for (const [key, value] of Object.entries(delta)) {
    const before = merged[key];
    if (typeof before === 'string' && typeof value === 'string') merged[key] = before + value;
    else if (Array.isArray(before) && Array.isArray(value)) merged[key] = [...before, ...value];
    else merged[key] = value;
  }
  return merged;
}

/** `{ providerData: { [key]: fields } }` when there are fields, else nothing: spread into a response or call. */
export function providerDataField(
  providerDataKey: string,
  fields: JsonObject | undefined,
): { providerData?: ProviderData } {
  return fields === undefined ? {} : { providerData: { [providerDataKey]: fields } };
}

function unknownFields(source: Record<string, unknown>, known: ReadonlySet<string>): JsonObject | undefined {
  let fields: Record<string, JsonValue> | undefined;
  for (const [key, value] of Object.entries(source)) {
    if (known.has(key) || value === null || value === undefined) continue;
    // A parsed JSON body holds only JSON values.
    (fields ??= {})[key] = value as JsonValue;
  }
  return fields;
}
