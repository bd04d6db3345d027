/**
 * The file operations of `FileCheckpointStore`, in their own module so the root entry imports no
 * `node:*` module: the store loads this one on first use.
 */
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';

export type { FileHandle };

/** The CRC-32 of the UTF-8 bytes of `data`, as 8 hex digits (`zlib.crc32`: native, Node 20.15 and later). */
export function checksum(data: string | Uint8Array): string {
  return crc32(data).toString(16).padStart(8, '0');
}

/** One line of a checkpoint log: `<crc32 of the JSON, 8 hex> <json>\n`, as UTF-8 bytes. */
export function encodeLogLine(json: string): Buffer {
  return Buffer.from(`${checksum(json)} ${json}\n`, 'utf8');
}

/** The lines of a checkpoint log, checked. */
export interface LogLines {
  /** The JSON of each whole line whose checksum matches, in order. */
  readonly lines: string[];
  /** The byte length of those lines: where the next line goes. */
  readonly bytes: number;
  /**
   * What follows them when the file does not end there: `'torn'` for a last line cut short or
   * failing its checksum (a write a crash interrupted: ignored, and written over by the next
   * save); `'damaged'` for a bad line with whole lines after it (never a crash's doing).
   */
  readonly rest: 'none' | 'torn' | 'damaged';
  /** The zero-based index of the bad line, when `rest` is not `'none'`. */
  readonly badLine?: number;
}

/** Splits a checkpoint log into its lines, checking each one's checksum. */
export function decodeLogLines(bytes: Buffer): LogLines {
  const lines: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    const whole = end !== -1;
    const good =
      whole &&
      end - start > 9 &&
      bytes[start + 8] === 0x20 &&
      checksum(bytes.subarray(start + 9, end)) === bytes.toString('latin1', start, start + 8);
    if (!good) {
      // A bad line is a torn write only when it is the last one.
      const rest = !whole || bytes.indexOf(0x0a, end + 1) === -1 ? 'torn' : 'damaged';
      return { lines, bytes: start, rest, badLine: lines.length };
    }
    lines.push(bytes.toString('utf8', start + 9, end));
    start = end + 1;
  }
  return { lines, bytes: start, rest: 'none' };
}

/** A file's whole contents as bytes, or `undefined` when it does not exist. */
export async function readBytes(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** A file's identity and size, or `undefined` when it does not exist. */
export async function fileIdentity(path: string): Promise<{ ino: number; size: number } | undefined> {
  try {
    const { ino, size } = await stat(path);
    return { ino, size };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Opens a file for writes at chosen offsets (`r+`); with `create`, creates it empty first (`w`).
 * Resolves to the handle and the file's identity.
 */
export async function openForWrites(
  path: string,
  create: boolean,
): Promise<{ handle: FileHandle; ino: number }> {
  const handle = await open(path, create ? 'w+' : 'r+');
  try {
    const { ino } = await handle.stat();
    return { handle, ino };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Writes `bytes` at `offset` of an open file, after cutting the file to `cutTo` when given (a torn
 * tail left by a crash); with `sync`, flushes the data (`fdatasync`: the size too, not the times).
 */
export async function writeBytesAt(
  handle: FileHandle,
  offset: number,
  bytes: Uint8Array,
  sync: boolean,
  cutTo?: number,
): Promise<void> {
  if (cutTo !== undefined) await handle.truncate(cutTo);
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, offset + written);
    written += bytesWritten;
  }
  if (sync) await handle.datasync();
}

/**
 * Replaces `directory/name` with `text` atomically: writes a temporary file beside it, flushes it
 * (with `sync`), renames it over the old one, then flushes the directory (with `sync`), so a crash
 * leaves either the old file or the new one, never a mix.
 */
export async function replaceFile(
  directory: string,
  name: string,
  text: string | Uint8Array,
  sync: boolean,
): Promise<number> {
  const temporary = join(directory, `.${name}.${globalThis.crypto.randomUUID()}.tmp`);
  const handle = await open(temporary, 'w');
  let bytes: number;
  try {
    const buffer = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    bytes = buffer.length;
    let written = 0;
    while (written < buffer.length) {
      const { bytesWritten } = await handle.write(buffer, written, buffer.length - written, written);
      written += bytesWritten;
    }
    if (sync) await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, join(directory, name));
  if (sync) await syncDirectory(directory);
  return bytes;
}

/** Creates `directory` (and its parents) when missing; with `sync`, flushes its parent so the entry survives a power loss. */
export async function ensureDirectory(directory: string, parent: string, sync: boolean): Promise<void> {
  const created = await mkdir(directory, { recursive: true });
  if (created === undefined || !sync) return;
  await syncDirectory(parent);
  // The store's own folder was created too: flush the entry of its first new folder.
  if (created !== directory) await syncDirectory(dirname(created));
}

/** Removes a run's directory: renamed away first (one atomic step a reader sees), then deleted. */
export async function removeDirectory(parent: string, name: string): Promise<void> {
  const doomed = join(parent, `.deleted-${name}-${globalThis.crypto.randomUUID()}`);
  try {
    await rename(join(parent, name), doomed);
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  await rm(doomed, { recursive: true, force: true });
}

export { join, resolve };

/** Flushes a directory's entries to the disk (a file created or renamed in it survives a power loss). */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot fsync a directory; the rename is still atomic there.
    if (!['EISDIR', 'EPERM', 'EINVAL', 'ENOTSUP'].includes((error as { code?: string }).code ?? ''))
      throw error;
  } finally {
    await handle.close();
  }
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}
