import type {
  AssistantMessage,
  ChatMessage,
  JsonObject,
  ToolCall,
  ToolMessage,
} from '../../model/messages.js';
import type { ModelWarning } from '../../model/model-adapter.js';
import { toGeminiParts } from './gemini-content.js';

/** The key under which the Gemini adapter keeps its provider data. */
export const geminiDataKey = 'gemini.generate_content';

/**
 * The value Gemini documents for a function call it did not sign (a turn from another provider,
 * a hand-written one): the validator skips it.
 */
export const skipSignature = 'skip_thought_signature_validator';

/** A `generateContent` content: a role and its parts. */
export interface GeminiContent {
  readonly role: 'user' | 'model';
  readonly parts: JsonObject[];
}

/** The transcript as `generateContent` takes it. */
export interface GeminiTranscript {
  /** The system messages' texts, in order, as `systemInstruction`; `undefined` when there are none. */
  readonly systemInstruction: { parts: JsonObject[] } | undefined;
  readonly contents: GeminiContent[];
}

/**
 * Maps the transcript to `systemInstruction` and `contents`. A user message becomes a `user`
 * content; an assistant message the `model` content Gemini returned, its parts exactly as received
 * (each `thoughtSignature` on its own part) while its text and tool calls are unchanged, else parts
 * rebuilt from the message; tool results `functionResponse` parts (`{ output }`, or `{ error }` for
 * the loop's tool errors), all the results of a turn in one `user` content in call order. A model
 * turn of the current exchange (after the last user message) whose function call carries no
 * signature Gemini issued gets {@link skipSignature}, and `warn` is told once.
 */
export function toGeminiTranscript(
  transcript: readonly ChatMessage[],
  warn: (warning: ModelWarning) => void,
): GeminiTranscript {
  const system: JsonObject[] = [];
  const contents: GeminiContent[] = [];
  const calls = new Map<string, ToolCall>();
  const lastUser = lastUserIndex(transcript);
  let skipped = 0;
  const append = (role: GeminiContent['role'], parts: JsonObject[]): void => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const [index, message] of transcript.entries()) {
    switch (message.role) {
      case 'system':
        if (message.content !== '') system.push({ text: message.content });
        break;
      case 'user':
        append('user', toGeminiParts(message.content, `messages[${index}].content`));
        break;
      case 'tool':
        append('user', toolResultParts(message, calls.get(message.tool_call_id), index));
        break;
      case 'assistant': {
        for (const toolCall of message.tool_calls ?? []) calls.set(toolCall.id, toolCall);
        const { parts, signed } = modelParts(message, index > lastUser);
        skipped += signed;
        append('model', parts);
        break;
      }
    }
  }
  // Function responses go first in a user content: text a user message added after them stays after them.
  for (const content of contents) {
    if (content.role !== 'user') continue;
    const responses = content.parts.filter((part) => 'functionResponse' in part);
    if (responses.length === 0 || responses.length === content.parts.length) continue;
    const others = content.parts.filter((part) => !('functionResponse' in part));
    content.parts.splice(0, content.parts.length, ...responses, ...others);
  }
  if (skipped > 0) {
    warn({
      code: 'thought_signature_skipped',
      message: `${skipped} function call(s) of the current turn had no thought signature from Gemini (a turn from another provider, an edited or hand-written one): they were sent with '${skipSignature}', which Gemini documents for this case; the model may reason less well about them.`,
    });
  }
  return { systemInstruction: system.length === 0 ? undefined : { parts: system }, contents };
}

/** The index of the last user message, or -1. */
function lastUserIndex(transcript: readonly ChatMessage[]): number {
  for (let index = transcript.length - 1; index >= 0; index -= 1) {
    if (transcript[index]!.role === 'user') return index;
  }
  return -1;
}

/** What the adapter kept of a model turn: its parts exactly as Gemini sent them, in a new array the request may add to. */
function storedParts(message: AssistantMessage): JsonObject[] | undefined {
  const parts = message.providerData?.[geminiDataKey]?.['parts'];
  return Array.isArray(parts) ? (parts.filter((part) => isObject(part)) as JsonObject[]) : undefined;
}

/**
 * The parts of a model turn: the stored ones while the message's text and tool calls still match
 * them, else rebuilt (text, then function calls with the signatures and ids their calls kept). In
 * the current turn, the first function call of a rebuilt turn without a signature gets the skip value;
 * `signed` counts those.
 */
function modelParts(message: AssistantMessage, current: boolean): { parts: JsonObject[]; signed: number } {
  const stored = storedParts(message);
  if (stored !== undefined && matches(stored, message)) return { parts: stored, signed: 0 };
  const parts: JsonObject[] = [];
  const content = message.content ?? '';
  if (content !== '') parts.push({ text: content });
  let signed = 0;
  (message.tool_calls ?? []).forEach((toolCall, position) => {
    const data = toolCall.providerData?.[geminiDataKey];
    const signature = typeof data?.['thoughtSignature'] === 'string' ? data['thoughtSignature'] : undefined;
    const id = typeof data?.['id'] === 'string' ? data['id'] : undefined;
    const needsSkip = current && signature === undefined && position === 0;
    if (needsSkip) signed += 1;
    parts.push({
      functionCall: {
        ...(id === undefined ? {} : { id }),
        name: toolCall.function.name,
        args: parseArguments(toolCall.function.arguments),
      },
      ...(signature !== undefined
        ? { thoughtSignature: signature }
        : needsSkip
          ? { thoughtSignature: skipSignature }
          : {}),
    });
  });
  return { parts, signed };
}

/** True while the message's content and tool calls are what the stored parts say. */
function matches(parts: readonly JsonObject[], message: AssistantMessage): boolean {
  const text = parts
    .filter((part) => typeof part['text'] === 'string' && part['thought'] !== true)
    .map((part) => part['text'] as string)
    .join('');
  if (text !== (message.content ?? '')) return false;
  const functionCalls = parts
    .map((part) => part['functionCall'])
    .filter((call): call is JsonObject => isObject(call));
  const toolCalls = message.tool_calls ?? [];
  if (functionCalls.length !== toolCalls.length) return false;
  return functionCalls.every(
    (call, index) =>
      call['name'] === toolCalls[index]!.function.name &&
      JSON.stringify(call['args'] ?? {}) === toolCalls[index]!.function.arguments,
  );
}

/**
 * A tool result as a `functionResponse` part (`name` and `id` from its call), with the images and
 * files of the result after it as parts of their own.
 */
function toolResultParts(message: ToolMessage, toolCall: ToolCall | undefined, index: number): JsonObject[] {
  const data = toolCall?.providerData?.[geminiDataKey];
  const id = typeof data?.['id'] === 'string' ? data['id'] : undefined;
  const media =
    typeof message.content === 'string'
      ? []
      : toGeminiParts(
          message.content.filter((part) => part.type !== 'text'),
          `messages[${index}].content`,
        );
  const text =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const error = toolError(text);
  return [
    {
      functionResponse: {
        ...(id === undefined ? {} : { id }),
        name: toolCall?.function.name ?? message.tool_call_id,
        response: error === undefined ? { output: text } : { error },
      },
    },
    ...media,
  ];
}

/** The message of the loop's tool error content, `{"error":"..."}`, else `undefined`. */
function toolError(content: string): string | undefined {
  if (!content.startsWith('{"error":')) return undefined;
  try {
    const parsed: unknown = JSON.parse(content);
    return isObject(parsed) && Object.keys(parsed).length === 1 && typeof parsed['error'] === 'string'
      ? parsed['error']
      : undefined;
  } catch {
    return undefined;
  }
}

/** A call's arguments as `args`: the parsed object, or `{}` when they are not a JSON object. */
function parseArguments(text: string): JsonObject {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? (parsed as JsonObject) : {};
  } catch {
    return {};
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
