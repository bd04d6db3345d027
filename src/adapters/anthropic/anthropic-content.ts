import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ContentPart, JsonObject, MessageContent } from '../../model/messages.js';

/** The image types Claude reads. */
const imageTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * A user message's or a tool result's content parts as Messages API content blocks: text as
 * `text` blocks (empty ones left out: the API refuses them), images as `image` blocks (base64, a
 * `data:` URL, or a URL), PDFs as `document` blocks (base64 or URL) and plain-text files as
 * `document` blocks of text. A string is one text block.
 *
 * @throws {InvalidArgumentError} for an image or file Claude cannot read, naming its media type.
 */
export function toAnthropicBlocks(content: MessageContent, where: string): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: JsonObject[] = [];
  for (const part of content) {
    const block = toBlock(part, where);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

function toBlock(part: ContentPart, where: string): JsonObject | undefined {
  if (part.type === 'text') return part.text === '' ? undefined : { type: 'text', text: part.text };
  const source = sourceOf(part);
  if (part.type === 'image') {
    if (source.type === 'url') return { type: 'image', source };
    if (!imageTypes.has(source.mediaType)) throw unsupported(part, source.mediaType, where);
    return { type: 'image', source: { type: 'base64', media_type: source.mediaType, data: source.data } };
  }
  const title = part.filename === undefined ? {} : { title: part.filename };
  if (part.mediaType === 'application/pdf') {
    return source.type === 'url'
      ? { type: 'document', source, ...title }
      : {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: source.data },
          ...title,
        };
  }
  if (part.mediaType === 'text/plain' && source.type === 'base64') {
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: decodeBase64(source.data) },
      ...title,
    };
  }
  throw unsupported(part, part.mediaType, where);
}

type Source =
  | { readonly type: 'url'; readonly url: string }
  | { readonly type: 'base64'; readonly mediaType: string; readonly data: string };

/** Where a part's bytes are: base64 data (a `data:` URL is read as such), or a URL. */
function sourceOf(part: Exclude<ContentPart, { type: 'text' }>): Source {
  if ('data' in part) return { type: 'base64', mediaType: part.mediaType, data: part.data };
  const dataUrl = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
  if (dataUrl !== null) return { type: 'base64', mediaType: dataUrl[1]!, data: dataUrl[2]! };
  return { type: 'url', url: part.url };
}

function decodeBase64(data: string): string {
  const binary = atob(data);
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function unsupported(part: ContentPart, mediaType: string | undefined, where: string): InvalidArgumentError {
  return new InvalidArgumentError({
    argument: where,
    value: { type: part.type, mediaType },
    message: `holds ${part.type === 'image' ? 'an image' : 'a file'} of type ${JSON.stringify(mediaType)}, which Claude cannot read: it reads images as image/jpeg, image/png, image/gif or image/webp, and files as application/pdf (or text/plain as base64 data). Convert it, or send its text.`,
  });
}
