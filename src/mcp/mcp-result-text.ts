import { base64Bytes } from '../model/content-parts.js';

/** The parts of an MCP `CallToolResult` this library reads; anything else is ignored. */
export interface McpCallResult {
  readonly content?: readonly unknown[] | undefined;
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
}

/**
 * Turns an MCP tool result into the text a model reads: text blocks as they are, joined by
 * newlines; a text resource with its URI and text; images, audio, binary resources and resource
 * links as one bracketed line each saying what they were (their bytes cannot go into a text
 * tool message, and dropping them silently would leave the model guessing); `structuredContent`
 * as JSON unless the text blocks already carry it (the same JSON, or every string in it).
 */
export function mcpResultText(result: McpCallResult): string {
  const content = result.content;
  // The usual answer, one text block and nothing structured, is that text: no arrays to build.
  if (result.structuredContent === undefined && content?.length === 1) {
    const block = content[0] as { type?: unknown; text?: unknown } | null;
    if (
      typeof block === 'object' &&
      block !== null &&
      block.type === 'text' &&
      typeof block.text === 'string'
    )
      return block.text;
  }
  const parts: string[] = [];
  const texts: string[] = [];
  for (const block of result.content ?? []) {
    const part = describeBlock(block);
    parts.push(part.text);
    if (part.isText) texts.push(part.text);
  }
  const structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    if (json !== undefined && !texts.some((text) => sameJson(text, json)) && !spelledOut(structured, texts)) {
      parts.push(json);
    }
  }
  return parts.join('\n');
}

/**
 * True when the structured content only repeats the text: every leaf is a string found in a text
 * block (servers often send `{ "content": <the same text> }`). Numbers and booleans are never
 * assumed to be spelled out, so `{ "sum": 42 }` is kept next to "The sum is 42".
 */
function spelledOut(structured: unknown, texts: readonly string[]): boolean {
  const leaves: unknown[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
    else leaves.push(value);
  };
  collect(structured);
  const joined = texts.join('\n');
  return (
    leaves.length > 0 &&
    leaves.every((leaf) => typeof leaf === 'string' && leaf !== '' && joined.includes(leaf))
  );
}

function describeBlock(block: unknown): { text: string; isText: boolean } {
  if (typeof block !== 'object' || block === null) {
    return { text: `[content block ${JSON.stringify(block)} is not an object]`, isText: false };
  }
  const record = block as Record<string, unknown>;
  switch (record['type']) {
    case 'text':
      return { text: stringOf(record['text']), isText: true };
    case 'image':
    case 'audio':
      return {
        text: `[${String(record['type'])}: ${stringOf(record['mimeType']) || 'unknown type'}, ${formatSize(bytesOf(record['data']))}; not shown as text]`,
        isText: false,
      };
    case 'resource':
      return { text: describeResource(record['resource']), isText: false };
    case 'resource_link': {
      const details = [record['mimeType'], record['description']].filter(
        (value): value is string => typeof value === 'string' && value !== '',
      );
      return {
        text: `[resource link: ${stringOf(record['name']) || '(unnamed)'} <${stringOf(record['uri'])}>${details.length > 0 ? ` ${details.join(', ')}` : ''}]`,
        isText: false,
      };
    }
    default:
      return {
        text: `[content of type ${JSON.stringify(record['type'])}; not shown as text]`,
        isText: false,
      };
  }
}

function describeResource(resource: unknown): string {
  if (typeof resource !== 'object' || resource === null) return '[resource without contents]';
  const record = resource as Record<string, unknown>;
  const mimeType = typeof record['mimeType'] === 'string' ? ` (${record['mimeType']})` : '';
  const head = `[resource <${stringOf(record['uri'])}>${mimeType}`;
  if (typeof record['text'] === 'string') return `${head}]\n${record['text']}`;
  return `${head}: ${formatSize(bytesOf(record['blob']))} of binary data; not shown as text]`;
}

function sameJson(text: string, json: string): boolean {
  const trimmed = text.trim();
  if (trimmed === json) return true;
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  try {
    return JSON.stringify(JSON.parse(trimmed)) === json;
  } catch {
    return false;
  }
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The bytes of a block's base64 field; 0 when it has none. */
function bytesOf(data: unknown): number {
  return typeof data === 'string' ? base64Bytes(data) : 0;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
