import type { ContentPart, MessageContent } from '../model/messages.js';
import type { McpCallResult } from './mcp-result-text.js';
import { mcpResultText } from './mcp-result-text.js';

/**
 * Turns an MCP tool result into tool message content: the text of {@link mcpResultText} when it
 * holds no image and no binary resource; otherwise parts: that text first (when there is any), then
 * each image as an image part and each binary resource as a file part (named after the last
 * segment of its URI), in the server's order, so a model that takes images sees them.
 */
export function mcpResultContent(result: McpCallResult): MessageContent {
  const blocks = result.content ?? [];
  const media: ContentPart[] = [];
  const others: unknown[] = [];
  for (const block of blocks) {
    const part = mediaPart(block);
    if (part === undefined) others.push(block);
    else media.push(part);
  }
  if (media.length === 0) return mcpResultText(result);
  const text = mcpResultText({ content: others, structuredContent: result.structuredContent });
  return text === '' ? media : [{ type: 'text', text }, ...media];
}

/** The part an image block or a binary resource block becomes; `undefined` for any other block. */
function mediaPart(block: unknown): ContentPart | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const fields = block as Record<string, unknown>;
  if (fields['type'] === 'image') {
    const { data, mimeType } = fields;
    return typeof data === 'string' && typeof mimeType === 'string'
      ? { type: 'image', data, mediaType: mimeType }
      : undefined;
  }
  if (
    fields['type'] !== 'resource' ||
    typeof fields['resource'] !== 'object' ||
    fields['resource'] === null
  ) {
    return undefined;
  }
  const resource = fields['resource'] as Record<string, unknown>;
  const { blob, mimeType, uri } = resource;
  if (typeof blob !== 'string') return undefined;
  const mediaType = typeof mimeType === 'string' ? mimeType : 'application/octet-stream';
  const filename = typeof uri === 'string' ? uri.split(/[/\\]/).pop() : undefined;
  return {
    type: mediaType.startsWith('image/') ? 'image' : 'file',
    data: blob,
    mediaType,
    ...(filename === undefined || filename === '' ? {} : { filename }),
  } as ContentPart;
}
