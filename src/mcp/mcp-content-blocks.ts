import { describeMediaPart } from '../model/content-parts.js';
import type { MessageContent } from '../model/messages.js';

/** An MCP content block a served tool result holds. */
export type McpContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string };

/**
 * A tool message's content as MCP `CallToolResult` content: a string as one text block; parts in
 * order, text as text blocks, a base64 image as an image block, and an image at a URL or a file as
 * a text block describing it (`[file: report.pdf, application/pdf, 80 KB]`), since MCP carries
 * neither by URL in a tool result.
 */
export function mcpContentBlocks(content: MessageContent): McpContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part): McpContentBlock => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image' && 'data' in part)
      return { type: 'image', data: part.data, mimeType: part.mediaType };
    return { type: 'text', text: describeMediaPart(part) };
  });
}
