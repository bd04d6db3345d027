/**
 * The file operations of `FileCheckpointStore`, in their own module so the root entry imports no
 * `node:*` module: the store loads this one on first use.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** The whole file's contents, or `undefined` when it does not exist. */
export async function readTextFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** The first `length` bytes of a file, as text; `undefined` when the file does not exist. */
export async function readPrefix(
  path: string,
  length: number,
): Promise<{ text: string; bytesRead: number } | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  try {
    const buffer = Buffer.allocUnsafe(length);
    let bytesRead = 0;
    while (bytesRead < length) {
      const { bytesRead: read } = await handle.read(buffer, bytesRead, length - bytesRead, bytesRead);
      if (read === 0) break;
      bytesRead += read;
    }
    return { text: buffer.toString('utf8', 0, bytesRead), bytesRead };
  } finally {
    await handle.close();
  }
}

/**
 * Writes `text` at byte `offset` of a file, created when missing, after cutting the file to
 * `offset` (dropping a torn tail left by a crash); with `sync`, flushes it to the disk. Resolves
 * to the bytes written.
 */
export async function writeAt(path: string, offset: number, text: string, sync: boolean): Promise<number> {
  const handle = await open(path, offset === 0 ? 'w' : 'r+');
  try {
    const buffer = Buffer.from(text, 'utf8');
    if (offset > 0) await handle.truncate(offset);
    let written = 0;
    while (written < buffer.length) {
      const { bytesWritten } = await handle.write(buffer, written, buffer.length - written, offset + written);
      written += bytesWritten;
    }
    if (sync) await handle.datasync();
    return buffer.length;
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `directory/name` with `text` atomically: writes a temporary file beside it, flushes it
 * (with `sync`), renames it over the old one, then flushes the directory (with `sync`), so a crash
 * leaves either the old file or the new one, never a mix.
 */
export async function replaceFile(
  directory: string,
  name: string,
  text: string,
  sync: boolean,
): Promise<number> {
  const temporary = join(directory, `.${name}.${globalThis.crypto.randomUUID()}.tmp`);
  const handle = await open(temporary, 'w');
  let bytes: number;
  try {
    const buffer = Buffer.from(text, 'utf8');
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

/** Deletes a file; a missing one is fine. */
export async function removeFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

export { join, resolve };

async function syncDirectory(directory: string): Promise<void> {
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
