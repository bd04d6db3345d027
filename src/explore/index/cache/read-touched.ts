import { closeSync, fstatSync, futimesSync, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** A hit older than this is touched (its mtime set to now), so that trimming drops the least recently used. */
const touchAfterMs = 60 * 60 * 1000;

/**
 * The bytes of a cache file, its mtime set to now when older than an hour (the cache's trimming
 * drops the least recently used first); `undefined` when it is absent or unreadable.
 */
export async function readTouched(location: string): Promise<Buffer | undefined> {
  try {
    const handle = await open(location, 'r');
    try {
      const bytes = await handle.readFile();
      const now = Date.now();
      if (now - (await handle.stat()).mtimeMs > touchAfterMs) {
        await handle.utimes(now / 1000, now / 1000).catch(() => undefined);
      }
      return bytes;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * {@link readTouched} on the calling thread: for the parse cache's entries, thousands of small
 * files that cost more as thread-pool round trips than the reads themselves.
 */
export function readTouchedSync(location: string): Buffer | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(location, 'r');
  } catch {
    return undefined;
  }
  try {
    const bytes = readFileSync(descriptor);
    const now = Date.now();
    if (now - fstatSync(descriptor).mtimeMs > touchAfterMs) {
      try {
        futimesSync(descriptor, now / 1000, now / 1000);
      } catch {
        // A read-only cache still serves its entries.
      }
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}
