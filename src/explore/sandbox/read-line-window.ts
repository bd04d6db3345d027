import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { looksBinary, decodeText } from './text-decoding.js';

/** One line of a window: its text (cut to the limit) and how many bytes were cut off. */
export interface WindowLine {
  readonly text: string;
  /** Bytes of the line beyond the cut; 0 when the line is whole. */
  readonly cutBytes: number;
}

/** What {@link readLineWindow} found: the window's lines and the file's total line count. */
export interface LineWindow {
  readonly lines: WindowLine[];
  readonly totalLines: number;
  readonly binary: boolean;
}

/** Options of {@link readLineWindow}. */
export interface LineWindowOptions {
  /** 1-based first line to keep. */
  readonly startLine: number;
  /** 1-based last line to keep, inclusive. */
  readonly endLine: number;
  /** Longer lines are cut to this many characters. */
  readonly maxLineChars: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Streams an open file once, counting its lines and keeping only those in the window, so a
 * 10 MB file or a 5 MB minified line costs one pass and bounded memory. Stops at the
 * first chunk when the file looks binary. Closes the handle.
 */
export async function readLineWindow(handle: FileHandle, options: LineWindowOptions): Promise<LineWindow> {
  const lines: WindowLine[] = [];
  // UTF-8 needs at most 4 bytes a character; keep that many so the cut lands on characters.
  const keepBytes = options.maxLineChars * 4;
  let lineNumber = 1;
  let parts: Buffer[] = [];
  let keptBytes = 0;
  let lineBytes = 0;
  let first = true;
  const stream = createReadStream('', { fd: handle, highWaterMark: 256 * 1024, signal: options.signal });
  const finishLine = (): void => {
    if (lineNumber >= options.startLine && lineNumber <= options.endLine) {
      let text = decodeText(Buffer.concat(parts)).replace(/\r$/, '');
      let cutBytes = lineBytes - keptBytes;
      if (text.length > options.maxLineChars) {
        cutBytes += Buffer.byteLength(text.slice(options.maxLineChars));
        text = text.slice(0, options.maxLineChars);
      }
      lines.push({ text, cutBytes });
    }
    parts = [];
    keptBytes = 0;
    lineBytes = 0;
    lineNumber += 1;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (first && looksBinary(chunk)) {
      stream.destroy();
      return { lines: [], totalLines: 0, binary: true };
    }
    first = false;
    let offset = 0;
    for (;;) {
      const newline = chunk.indexOf(10, offset);
      const end = newline === -1 ? chunk.length : newline;
      lineBytes += end - offset;
      if (lineNumber >= options.startLine && lineNumber <= options.endLine && keptBytes < keepBytes) {
        const piece = chunk.subarray(offset, Math.min(end, offset + keepBytes - keptBytes));
        parts.push(Buffer.from(piece));
        keptBytes += piece.length;
      }
      if (newline === -1) break;
      finishLine();
      offset = newline + 1;
    }
  }
  // A last line without a trailing newline still counts.
  if (lineBytes > 0) finishLine();
  return { lines, totalLines: lineNumber - 1, binary: false };
}
