import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { describeMediaPart } from '../../model/content-parts.js';
import type { ContentPart, FilePart, ImagePart, MessageContent } from '../../model/messages.js';

/**
 * Which content parts a Chat Completions server takes: text, images and files in user messages
 * and text in tool messages (`'text_and_media'`, OpenAI), or text only (`'text'`, DeepSeek).
 */
export type AcceptedParts = 'text_and_media' | 'text';

/** Where a message's content sits, for the wire and for an error that names it. */
export interface ContentPlace {
  readonly role: 'user' | 'tool';
  /** The message's index in what the call sends. */
  readonly index: number;
  /** The tool call a tool message answers. */
  readonly toolCallId?: string;
  readonly accepted: AcceptedParts;
  /** The adapter's provider, named in errors (`'openai'`, `'deepseek'`). */
  readonly provider: string;
}

/**
 * A user or tool message's content as Chat Completions takes it: a string as it is; parts as
 * OpenAI documents them (`{ type: 'text' }`, `{ type: 'image_url', image_url: { url } }` with base64
 * as a `data:` URL, `{ type: 'file', file: { file_data, filename } }`), or, for a text-only server,
 * the texts joined by newlines.
 *
 * @throws {InvalidArgumentError} before the request, naming the part, when the server cannot take it:
 * an image or file in a tool message, any image or file for a text-only server, a file by URL.
 */
export function toWireContent(
  content: MessageContent,
  place: ContentPlace,
): string | Record<string, unknown>[] {
  if (typeof content === 'string') return content;
  const textOnly = place.accepted === 'text' || place.role === 'tool';
  content.forEach((part, partIndex) => {
    if (part.type !== 'text' && textOnly) refuse(part, partIndex, place);
  });
  if (place.accepted === 'text') return content.map((part) => (part as { text: string }).text).join('\n');
  return content.map((part, partIndex) => wirePart(part, partIndex, place));
}

function wirePart(part: ContentPart, partIndex: number, place: ContentPlace): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image_url', image_url: { url: imageUrl(part) } };
    case 'file':
      return { type: 'file', file: wireFile(part, partIndex, place) };
  }
}

function imageUrl(part: ImagePart): string {
  return 'data' in part ? `data:${part.mediaType};base64,${part.data}` : part.url;
}

function wireFile(part: FilePart, partIndex: number, place: ContentPlace): Record<string, unknown> {
  const filename = part.filename ?? 'file';
  if ('data' in part) return { file_data: `data:${part.mediaType};base64,${part.data}`, filename };
  if (part.url.startsWith('data:')) return { file_data: part.url, filename };
  throw new InvalidArgumentError({
    argument: partPath(place, partIndex),
    value: describeMediaPart(part),
    message: `Chat Completions takes a file as base64 data, not by URL. Download it and pass { type: 'file', data: '<base64>', mediaType: '${part.mediaType}', filename }.`,
  });
}

function refuse(part: ImagePart | FilePart, partIndex: number, place: ContentPlace): never {
  const what = part.type === 'image' ? 'an image' : 'a file';
  const message =
    place.role === 'tool'
      ? `the result of tool call "${place.toolCallId ?? ''}" holds ${what}, but a Chat Completions tool message takes only text. Have the tool return text (a description of it), or send the ${part.type} in a user message after the tool results (a prepareTurn hook can add one), or use an adapter that takes ${part.type}s in tool results.`
      : `${place.provider} takes only text in a user message, not ${what}. Remove the ${part.type}, describe it in text, or use an adapter whose model takes ${part.type}s (OpenAI).`;
  throw new InvalidArgumentError({
    argument: partPath(place, partIndex),
    value: describeMediaPart(part),
    message,
  });
}

function partPath(place: ContentPlace, partIndex: number): string {
  return `messages[${place.index}].content[${partIndex}]`;
}
