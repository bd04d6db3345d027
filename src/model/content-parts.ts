import { canonicalJson } from '../shared/canonical-json.js';
import type { ContentPart, FilePart, ImagePart, MessageContent } from './messages.js';

/**
 * Helpers over message content (a string, or text, image and file parts), shared by the loop, the
 * context window, traces and the adapters: the checks of a part's shape, its size, and the text
 * that stands for it where only text fits (a summary, a loop guard quote, a trace).
 */

/** What is wrong with a message's `content` that may hold parts: a string, or an array of parts. */
export function contentProblem(
  value: unknown,
): { readonly path: string; readonly expected: string } | undefined {
  if (typeof value === 'string') return undefined;
  if (!Array.isArray(value)) return { path: '', expected: 'a string or an array of content parts' };
  for (let index = 0; index < value.length; index++) {
    const expected = partProblem(value[index]);
    if (expected !== undefined) return { path: `[${index}]`, expected };
  }
  return undefined;
}

const textExample = "{ type: 'text', text: '...' }";
const imageExample = "{ type: 'image', url } or { type: 'image', data: '<base64>', mediaType: 'image/png' }";
const fileExample = "{ type: 'file', url or data: '<base64>', mediaType: 'application/pdf', filename? }";

/** What one part should have been, or `undefined` when it is a valid part. */
function partProblem(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) {
    return `a content part: ${textExample}, ${imageExample} or ${fileExample}`;
  }
  const fields = part as Record<string, unknown>;
  switch (fields['type']) {
    case 'text':
      return typeof fields['text'] === 'string'
        ? undefined
        : `a text part with a string text: ${textExample}`;
    case 'image':
      if (!hasOneSource(fields) || !optionalString(fields['mediaType']))
        return `an image part: ${imageExample}`;
      if (fields['data'] !== undefined && typeof fields['mediaType'] !== 'string') {
        return `an image part with the mediaType of its base64 data: ${imageExample}`;
      }
      return undefined;
    case 'file':
      if (
        !hasOneSource(fields) ||
        typeof fields['mediaType'] !== 'string' ||
        !optionalString(fields['filename'])
      ) {
        return `a file part: ${fileExample}`;
      }
      return undefined;
    default:
      return `a content part of type "text", "image" or "file": ${textExample}, ${imageExample} or ${fileExample}`;
  }
}

/** Exactly one of `url` and `data`, a string. */
function hasOneSource(fields: Record<string, unknown>): boolean {
  const url = fields['url'];
  const data = fields['data'];
  return (
    (typeof url === 'string') !== (typeof data === 'string') && (url === undefined || data === undefined)
  );
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** The bytes base64 `data` stands for (its length less padding, times 3/4). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** `12345` bytes as `12 KB`, `2.5 MB`, `812 B`: the size a placeholder shows. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The text that stands for an image or a file where only text fits: `[image: image/png, 12 KB]`,
 * `[file: report.pdf, application/pdf, 80 KB]`, `[image: https://example.com/chart.png]`.
 */
export function describeMediaPart(part: ImagePart | FilePart): string {
  const facts: string[] = [];
  if (part.type === 'file' && part.filename !== undefined) facts.push(part.filename);
  if (part.mediaType !== undefined) facts.push(part.mediaType);
  if ('data' in part) facts.push(formatBytes(base64Bytes(part.data)));
  else facts.push(part.url.startsWith('data:') ? `${formatBytes(part.url.length)} data URL` : part.url);
  return `[${part.type}: ${facts.join(', ')}]`;
}

/** Content as text: a string as it is; parts as their texts, each image or file by its placeholder, one per line. */
export function contentAsText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : describeMediaPart(part))).join('\n');
}

/**
 * The characters content sends: a string's length; for parts, their texts and the characters of
 * each image or file (its base64 data or its URL).
 */
export function contentLength(content: MessageContent): number {
  if (typeof content === 'string') return content.length;
  let length = 0;
  for (const part of content) length += partLength(part);
  return length;
}

function partLength(part: ContentPart): number {
  if (part.type === 'text') return part.text.length;
  return 'data' in part ? part.data.length : part.url.length;
}

/** Whether two contents are the same: equal strings (or both null), or parts equal field by field, in order. */
export function sameContent(
  left: MessageContent | null | undefined,
  right: MessageContent | null | undefined,
): boolean {
  if (left === right) return true;
  if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
  return left.every((part, index) => canonicalJson(part) === canonicalJson(right[index]));
}
