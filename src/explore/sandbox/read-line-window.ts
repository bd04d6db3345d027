import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { looksBinary, decodeText } from './text-decoding.js';
import { PrivateKeyStream, redactLine } from './private-key-blocks.js';

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
 * 10 MB file or a 5 MB minified line costs one pass and bounded memory. Private key blocks
 * read as `[private key redacted]`, as `redactPrivateKeys` gives them. Stops at the first
 * chunk when the file looks binary. Closes the handle.
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
  let chunkStart = 0;
  let lineStart = 0;
  const privateKeys = new PrivateKeyStream();
  const stream = createReadStream('', { fd: handle, highWaterMark: 256 * 1024, signal: options.signal });
  const finishLine = (end: number): void => {
    const armors = privateKeys.endLine(lineStart, end);
    if (lineNumber >= options.startLine && lineNumber <= options.endLine) {
      let kept = Buffer.concat(parts);
      if (armors.insideAtStart || armors.armors.length > 0) {
        kept = Buffer.from(redactLine(kept.toString('latin1'), armors), 'latin1');
      }
      let text = decodeText(kept).replace(/\r$/, '');
      let cutBytes = lineBytes - keptBytes;
      if (text.length > options.maxLineChars) {
        cutBytes += Buffer.byteLength(text.slice(options.maxLineChars));
        text = text.slice(0, options.maxLineChars);
      }
      lines.push({ text, cutBytes });
    }
    parts = [];
    lineStart = end + 1;
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
    privateKeys.scan(chunk);
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
      finishLine(chunkStart + newline);
      offset = newline + 1;
    }
    chunkStart += chunk.length;
  }
  // A last line without a trailing newline still counts.
  if (lineBytes > 0) finishLine(chunkStart);
  return { lines, totalLines: lineNumber - 1, binary: false };
}
