import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { isInsideDirectory } from './sandbox-paths.js';

/**
 * Open flags for a file the sandbox reads: never blocks in `open()` on a FIFO (`O_NONBLOCK`),
 * never makes a terminal the controlling one (`O_NOCTTY`). Both are 0 where they do not exist
 * (Windows, which has no FIFOs in the file system).
 */
export const safeOpenFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** Options of {@link openRegularFile}, {@link readRegularFile} and {@link readRegularFileSync}. */
export interface RegularFileOptions {
  /** A larger file is not opened (`too_large`). @default no limit */
  readonly maxBytes?: number;
  /** The real path of a directory the file's real path must lie inside (`outside_root` otherwise). */
  readonly root?: string;
  /** Refuse the path when it is itself a symlink (`not_regular`), as git does for `.gitignore`. @default false */
  readonly noFollow?: boolean;
}

/** Why a file was not opened; nothing was read from it. */
export type NotOpened =
  | { readonly type: 'missing' }
  /** A directory, FIFO, socket, device, or (with `noFollow`) a symlink: `stats` of what was found. */
  | { readonly type: 'not_regular'; readonly stats: Stats }
  | { readonly type: 'outside_root' }
  | { readonly type: 'too_large'; readonly size: number };

/** What {@link readRegularFile} found. */
export type RegularFileRead =
  { readonly type: 'file'; readonly bytes: Buffer; readonly stats: Stats } | NotOpened;

/**
 * Opens a file only when it is a regular file (inside `root` when given, at most `maxBytes`):
 * checked with `stat` before opening, so no device or FIFO is ever opened in the normal case;
 * opened with {@link safeOpenFlags}; checked again with `fstat` on the handle, which must be
 * the same file, still regular, so a swap between the two is caught. Never throws for what it
 * finds on disk. The caller closes the handle.
 */
export async function openRegularFile(
  path: string,
  options: RegularFileOptions = {},
): Promise<{ readonly type: 'file'; readonly handle: FileHandle; readonly stats: Stats } | NotOpened> {
  let before: Stats;
  try {
    before = await (options.noFollow === true ? lstat(path) : stat(path));
  } catch {
    return { type: 'missing' };
  }
  const refused = refusal(before, options);
  if (refused !== undefined) return refused;
  if (options.root !== undefined) {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined) return { type: 'missing' };
    if (!isInsideDirectory(options.root, real)) return { type: 'outside_root' };
  }
  let handle: FileHandle;
  try {
    handle = await open(path, openFlags(options));
  } catch {
    return { type: 'missing' };
  }
  const opened = await handle.stat().catch(() => undefined);
  const late = opened === undefined ? { type: 'missing' as const } : swapRefusal(before, opened, options);
  if (late === undefined && opened !== undefined) return { type: 'file', handle, stats: opened };
  await handle.close().catch(() => undefined);
  return late ?? { type: 'missing' };
}

/**
 * Reads a file with the checks of {@link openRegularFile}, and no further than `maxBytes`
 * even when it grows meanwhile (`too_large`, never an endless read).
 */
export async function readRegularFile(
  path: string,
  options: RegularFileOptions & { readonly maxBytes: number },
): Promise<RegularFileRead> {
  const opened = await openRegularFile(path, options);
  if (opened.type !== 'file') return opened;
  const { handle, stats } = opened;
  try {
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, options.maxBytes) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) {
      ({ bytesRead: read } = await handle.read(buffer, length, buffer.length - length, length));
    }
    return finish(buffer, length, stats, options.maxBytes);
  } catch {
    return { type: 'missing' };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** {@link readRegularFile} for synchronous callers (`.gitignore` rules, the TypeScript language service host). */
export function readRegularFileSync(
  path: string,
  options: RegularFileOptions & { readonly maxBytes: number },
): RegularFileRead {
  let before: Stats;
  try {
    before = options.noFollow === true ? lstatSync(path) : statSync(path);
  } catch {
    return { type: 'missing' };
  }
  const refused = refusal(before, options);
  if (refused !== undefined) return refused;
  let descriptor: number;
  try {
    if (options.root !== undefined && !isInsideDirectory(options.root, realpathSync.native(path))) {
      return { type: 'outside_root' };
    }
    descriptor = openSync(path, openFlags(options));
  } catch {
    return { type: 'missing' };
  }
  try {
    const opened = fstatSync(descriptor);
    const late = swapRefusal(before, opened, options);
    if (late !== undefined) return late;
    const buffer = Buffer.allocUnsafe(Math.min(opened.size, options.maxBytes) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) {
      read = readSync(descriptor, buffer, length, buffer.length - length, length);
    }
    return finish(buffer, length, opened, options.maxBytes);
  } catch {
    return { type: 'missing' };
  } finally {
    closeSync(descriptor);
  }
}

function openFlags(options: RegularFileOptions): number {
  return safeOpenFlags | (options.noFollow === true ? (constants.O_NOFOLLOW ?? 0) : 0);
}

function refusal(stats: Stats, options: RegularFileOptions): NotOpened | undefined {
  if (!stats.isFile()) return { type: 'not_regular', stats };
  if (options.maxBytes !== undefined && stats.size > options.maxBytes)
    return { type: 'too_large', size: stats.size };
  return undefined;
}

/** The `fstat` of the open handle must be the file `stat` saw, and pass the same checks. */
function swapRefusal(before: Stats, opened: Stats, options: RegularFileOptions): NotOpened | undefined {
  const refused = refusal(opened, options);
  if (refused !== undefined) return refused;
  return before.dev === opened.dev && before.ino === opened.ino
    ? undefined
    : { type: 'not_regular', stats: opened };
}

function finish(buffer: Buffer, length: number, stats: Stats, maxBytes: number): RegularFileRead {
  if (length > maxBytes) return { type: 'too_large', size: Math.max(stats.size, length) };
  return { type: 'file', bytes: buffer.subarray(0, length), stats };
}
