import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ContentPart, JsonObject, MessageContent } from '../../model/messages.js';

/**
 * A user message's or a tool result's content as Gemini parts: text as `text` parts (empty ones
 * left out), base64 images and files (and `data:` URLs) as `inlineData`, other URLs as `fileData`
 * with their media type. A string is one text part.
 *
 * @throws {InvalidArgumentError} for a URL part without a media type, which `fileData` requires.
 */
export function toGeminiParts(content: MessageContent, where: string): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const parts: JsonObject[] = [];
  for (const part of content) {
    const converted = toPart(part, where);
    if (converted !== undefined) parts.push(converted);
  }
  return parts;
}

function toPart(part: ContentPart, where: string): JsonObject | undefined {
  if (part.type === 'text') return part.text === '' ? undefined : { text: part.text };
  if ('data' in part) return { inlineData: { mimeType: part.mediaType, data: part.data } };
  const dataUrl = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
  if (dataUrl !== null) return { inlineData: { mimeType: dataUrl[1]!, data: dataUrl[2]! } };
  if (part.mediaType === undefined) {
    throw new InvalidArgumentError({
      argument: where,
      value: { type: part.type, url: part.url },
      message:
        "is an image URL without a mediaType, which Gemini's fileData requires: add mediaType (e.g. 'image/png'), or send the bytes as base64 data.",
    });
  }
  return { fileData: { mimeType: part.mediaType, fileUri: part.url } };
}
