import { base64Bytes, formatBytes } from '../model/content-parts.js';
import type { MessageContent } from '../model/messages.js';
import type { TraceContentPart } from './trace-events.js';

/**
 * Cuts a text a trace event carries to `maxChars` characters, marking the cut; a text within the
 * cap is returned as it is.
 */
export function capTraceText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[trace cut: ${text.length - maxChars} of ${text.length} characters left out (maxTraceChars)]`;
}

/**
 * Tool message content as a trace event carries it: a string cut like {@link capTraceText}; parts
 * with each text cut alike, and each image or file by reference: its URL, or, for base64 data
 * (or a `data:` URL), its size in `bytes` in place of the data, which is never copied into a trace.
 */
export function capTraceContent(
  content: MessageContent,
  maxChars: number,
): string | readonly TraceContentPart[] {
  if (typeof content === 'string') return capTraceText(content, maxChars);
  return content.map((part): TraceContentPart => {
    if (part.type === 'text') return { type: 'text', text: capTraceText(part.text, maxChars) };
    const { type, mediaType } = part;
    const filename = part.type === 'file' ? part.filename : undefined;
    const shown = {
      type,
      ...(mediaType === undefined ? {} : { mediaType }),
      ...(filename === undefined ? {} : { filename }),
    };
    if ('data' in part) return { ...shown, bytes: base64Bytes(part.data) };
    return part.url.startsWith('data:') ? { ...shown, bytes: part.url.length } : { ...shown, url: part.url };
  });
}

/**
 * A tool's return value as a `tool_result` event carries it: as it is when its JSON fits in
 * `maxChars`, otherwise its text (a string, or its JSON) cut with a marker; a `toolContent` result
 * as its parts in {@link capTraceContent}'s form. `content` is the tool message built from it;
 * while it is shorter than `contentCap` (the runner's cut) and `maxChars`, it is the whole JSON, so
 * the value is small and is not serialized again.
 */
export function capTraceResult(
  result: unknown,
  content: MessageContent,
  maxChars: number,
  contentCap: number,
): unknown {
  if (typeof result === 'string') return capTraceText(result, maxChars);
  if (typeof result !== 'object' || result === null) return result;
  if (typeof content !== 'string') return capTraceContent(content, maxChars);
  if (content.length < Math.min(maxChars, contentCap)) return result;
  let json: string | undefined;
  try {
    json = JSON.stringify(result);
  } catch {
    return capTraceText(content, maxChars);
  }
  return json === undefined || json.length <= maxChars ? result : capTraceText(json, maxChars);
}

/** A `tool_result` event's content as text: a string as it is; parts as their texts, each image or file as `[image: image/png, 12 KB]`. */
export function traceContentText(content: string | readonly TraceContentPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      if (part.type === 'text') return part.text;
      const facts = [
        part.filename,
        part.mediaType,
        part.bytes === undefined ? part.url : formatBytes(part.bytes),
      ];
      return `[${part.type}: ${facts.filter((fact) => fact !== undefined).join(', ')}]`;
    })
    .join('\n');
}
