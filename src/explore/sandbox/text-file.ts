import { binaryError, unreadableError } from './read-errors.js';
import type { RegularFileRead } from './read-regular-file.js';
import { redactPrivateKeys } from './private-key-blocks.js';
import { decodeText, looksBinary } from './text-decoding.js';

/** What {@link Sandbox.readText} returns. */
export interface TextFile {
  readonly text: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Repo-relative path. */
  readonly path: string;
}

/**
 * A whole read as text: invalid UTF-8 replaced, each line of a private key block replaced by
 * `[private key redacted]`.
 *
 * @throws {FileReadError} when the file was missing, not a regular file, over `maxBytes` or binary.
 * @throws {SandboxError} when its real path led outside the root.
 */
export function textFileOf(read: RegularFileRead, relative: string, maxBytes: number): TextFile {
  if (read.type !== 'file') throw unreadableError(read, relative, maxBytes);
  if (looksBinary(read.bytes)) throw binaryError(relative);
  return {
    text: redactPrivateKeys(decodeText(read.bytes)),
    size: read.stats.size,
    mtimeMs: read.stats.mtimeMs,
    path: relative,
  };
}
