import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import type { ParsedFile } from '../code-symbol.js';

/** Bumped whenever the entry layout or the shape of `ParsedFile` changes: older entries are then never read. */
export const cacheEntryFormat = 1;

const magic = Buffer.from('TOPF', 'latin1');
const checksumBytes = 32;
/** Magic, format, payload length, checksum. */
const headerBytes = magic.length + 4 + 4 + checksumBytes;

/** What one cache entry holds: the key it was written under (checked on read) and the parse. */
interface EntryPayload {
  readonly key: string;
  readonly file: ParsedFile;
}

/** One parse as the bytes of a cache entry: a header (magic, format, length, SHA-256 of the payload), then the parse serialized by `node:v8`. */
export function encodeCacheEntry(key: string, file: ParsedFile): Buffer {
  const payload = serialize({ key, file } satisfies EntryPayload);
  const header = Buffer.alloc(headerBytes);
  magic.copy(header, 0);
  header.writeUInt32LE(cacheEntryFormat, magic.length);
  header.writeUInt32LE(payload.length, magic.length + 4);
  createHash('sha256')
    .update(payload)
    .digest()
    .copy(header, magic.length + 8);
  return Buffer.concat([header, payload]);
}

/**
 * The parse an entry holds, or `undefined` when the bytes are not a whole, intact entry of this
 * format written under `key` for `path`: truncated, garbled, of another format, or misplaced.
 */
export function decodeCacheEntry(bytes: Buffer, key: string, path: string): ParsedFile | undefined {
  if (bytes.length < headerBytes || !bytes.subarray(0, magic.length).equals(magic)) return undefined;
  if (bytes.readUInt32LE(magic.length) !== cacheEntryFormat) return undefined;
  if (bytes.readUInt32LE(magic.length + 4) !== bytes.length - headerBytes) return undefined;
  const payload = bytes.subarray(headerBytes);
  const checksum = bytes.subarray(magic.length + 8, headerBytes);
  if (!createHash('sha256').update(payload).digest().equals(checksum)) return undefined;
  let entry: Partial<EntryPayload>;
  try {
    entry = deserialize(payload) as Partial<EntryPayload>;
  } catch {
    return undefined;
  }
  const file = entry?.file;
  if (entry?.key !== key || file?.path !== path) return undefined;
  if (!Array.isArray(file.symbols) || !Array.isArray(file.imports) || !Array.isArray(file.exports)) {
    return undefined;
  }
  return file.references instanceof Map ? file : undefined;
}
