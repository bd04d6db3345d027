import { describeThrown } from '../errors/describe-value.js';
import type { ContentPart, MessageContent } from '../model/messages.js';
import { isToolContent } from './tool-content.js';

/** A serialized tool result, or the reason it could not be serialized. */
export type SerializedResult =
  { readonly ok: true; readonly content: MessageContent } | { readonly ok: false; readonly error: string };

/**
 * Turns a tool's return value into tool message content: a string goes through unchanged,
 * `toolContent(parts)` becomes the parts, `undefined` becomes `''`, anything else is
 * `JSON.stringify`'d. Circular values and BigInts are reported, not thrown.
 */
export function serializeResult(result: unknown): SerializedResult {
  if (typeof result === 'string') return { ok: true, content: result };
  if (isToolContent(result)) return { ok: true, content: result.parts };
  if (result === undefined) return { ok: true, content: '' };
  try {
    const content = JSON.stringify(result);
    // Functions and symbols stringify to undefined.
    if (content === undefined)
      return {
        ok: false,
        error: `The tool returned a ${typeof result}, which cannot be sent to the model as JSON. Return a string or a JSON-serializable value.`,
      };
    return { ok: true, content };
  } catch (error) {
    const reason = describeThrown(error);
    return {
      ok: false,
      error: `The tool's result could not be serialized to JSON (${reason}). Return a string or a JSON-serializable value (no cycles, no BigInt).`,
    };
  }
}

/** Formats an error message as tool message content: `{"error": "..."}`. */
export function errorContent(message: string): string {
  return JSON.stringify({ error: message });
}

/**
 * Cuts `content` to at most `maxChars` characters and appends a marker that says how much was cut;
 * parts have each text part cut alike (images and files are kept whole). Content within the cap is
 * returned as it is.
 */
export function capContent<Content extends MessageContent>(content: Content, maxChars: number): Content;
export function capContent(content: MessageContent, maxChars: number): MessageContent {
  if (typeof content !== 'string') {
    if (content.every((part) => part.type !== 'text' || part.text.length <= maxChars)) return content;
    return content.map((part): ContentPart =>
      part.type === 'text' ? { type: 'text', text: capContent(part.text, maxChars) } : part,
    );
  }
  if (content.length <= maxChars) return content;
  const cut = content.length - maxChars;
  return `${content.slice(0, maxChars)}\n[truncated: ${cut} of ${content.length} characters were cut; ask for a narrower result]`;
}
