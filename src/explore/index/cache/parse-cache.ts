import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ParsedFile } from '../code-symbol.js';
import { cacheEntryFormat, decodeCacheEntry, encodeCacheEntry } from './cache-entry.js';
import type { ResolvedParseCacheOptions } from './parse-cache-options.js';
import { readTouchedSync } from './read-touched.js';
import { snapshotFormat } from './repository-snapshot.js';
import { compilerCacheFolder } from './compiler-code-cache.js';

/** A temporary file older than this was left by a process that died mid-write. */
const staleTemporaryMs = 10 * 60 * 1000;
/** Trimming stops once the cache is this share of its cap, leaving room for the writes until the next trim. */
const trimTarget = 0.8;
const trimConcurrency = 32;

interface EntryStats {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** The folder of the repository snapshots (see `SnapshotStore`) in a cache folder. */
export function snapshotFolder(directory: string): string {
  return join(directory, `repositories-v${snapshotFormat}`);
}

const caches = new Map<string, ParseCache>();

/** One `ParseCache` per folder in a process, so its trimming is not run by several at once. */
export function parseCacheFor(options: ResolvedParseCacheOptions): ParseCache {
  const key = `${options.directory}\n${options.maxBytes}`;
  let cache = caches.get(key);
  if (cache === undefined) {
    cache = new ParseCache(options);
    caches.set(key, cache);
  }
  return cache;
}

/**
 * Parse results on disk, one file per entry under `<directory>/parses-v<format>/<2 hex>/<key>`,
 * shared by every repository and process using the folder. Its size cap counts the repository
 * snapshots beside them too (`<directory>/repositories-v<format>/`) and the compiler's code cache
 * (`<directory>/compiler-v<format>/`), trimmed with the entries. Writes go to a temporary file renamed
 * into place, so a reader sees a whole entry or none and two writers of one key do not clash; no
 * locks are taken. The size is checked on a process's first write and after every eighth of the
 * cap written, so between checks it may run over by that much. An entry that fails its checks is deleted and reported as a miss. Any file
 * system error makes the cache do less (a failed write stops further writes in this process),
 * never throws. Writes asked for while an answer is being worked out (`whileAnswering`) wait
 * until no answer is, so an answer never waits behind its own cache writes.
 */
export class ParseCache {
  readonly #folder: string;
  readonly #snapshots: string;
  readonly #compiler: string;
  readonly #maxBytes: number;
  readonly #shards = new Map<string, Promise<boolean>>();
  #writable = true;
  #writtenSinceTrim = 0;
  #trimmed = false;
  #trimming: Promise<void> | undefined;
  #trimAgain = false;
  readonly #writing = new Set<Promise<void>>();
  /** Answers under way (`whileAnswering`): while there are any, entries wait in `#held`. */
  #answering = 0;
  readonly #held: { readonly key: string; readonly file: ParsedFile; readonly written: () => void }[] = [];

  constructor(options: ResolvedParseCacheOptions) {
    this.#folder = join(options.directory, `parses-v${cacheEntryFormat}`);
    this.#snapshots = snapshotFolder(options.directory);
    this.#compiler = compilerCacheFolder(options.directory);
    this.#maxBytes = options.maxBytes;
  }

  /** The parse stored under `key` for `path`, or `undefined` when absent, unreadable or damaged (then deleted). */
  async get(key: string, path: string): Promise<ParsedFile | undefined> {
    const location = this.#location(key);
    const bytes = readTouchedSync(location);
    if (bytes === undefined) return undefined;
    const file = decodeCacheEntry(bytes, key, path);
    if (file === undefined) await unlink(location).catch(() => undefined);
    return file;
  }

  /**
   * Stores a parse under `key`; resolves when written, or given up on. While an answer is under
   * way (`whileAnswering`) the write waits for its end.
   */
  set(key: string, file: ParsedFile): Promise<void> {
    if (this.#answering === 0) return this.#track(this.#write(key, file));
    return this.#track(new Promise<void>((written) => this.#held.push({ key, file, written })));
  }

  /**
   * Runs `work` (a question being answered) with the writes it asks for held until no answer is
   * under way: the parses of a map of the repository are many, and writing each as it is made
   * took a fifth of that answer's time. The held writes then run as before.
   */
  async whileAnswering<T>(work: () => Promise<T>): Promise<T> {
    this.#answering += 1;
    try {
      return await work();
    } finally {
      this.#answering -= 1;
      if (this.#answering === 0) this.#writeHeld();
    }
  }

  /** Resolves once every write asked for so far is written or given up on, held ones included (they begin now). */
  async settled(): Promise<void> {
    this.#writeHeld();
    await Promise.all([...this.#writing]);
  }

  #track(writing: Promise<void>): Promise<void> {
    this.#writing.add(writing);
    void writing.finally(() => this.#writing.delete(writing));
    return writing;
  }

  #writeHeld(): void {
    for (const { key, file, written } of this.#held.splice(0)) void this.#write(key, file).then(written);
  }

  async #write(key: string, file: ParsedFile): Promise<void> {
    if (!this.#writable) return;
    const location = this.#location(key);
    const temporary = `${location}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    let bytes: Buffer;
    try {
      if (!(await this.#ensureShard(key.slice(0, 2)))) return;
      bytes = encodeCacheEntry(key, file);
      await writeFile(temporary, bytes);
      await rename(temporary, location);
    } catch {
      this.#writable = false;
      await unlink(temporary).catch(() => undefined);
      return;
    }
    this.written(bytes.length);
  }

  /** Counts `bytes` written into the cache folder (an entry, a snapshot) toward the next trim. */
  written(bytes: number): void {
    this.#writtenSinceTrim += bytes;
    // The first write of a process trims, then every eighth of the cap written: not every write.
    if (!this.#trimmed || this.#writtenSinceTrim > this.#maxBytes / 8) {
      this.#trimmed = true;
      this.#scheduleTrim();
    }
  }

  #location(key: string): string {
    return join(this.#folder, key.slice(0, 2), key);
  }

  #ensureShard(shard: string): Promise<boolean> {
    let made = this.#shards.get(shard);
    if (made === undefined) {
      made = mkdir(join(this.#folder, shard), { recursive: true }).then(
        () => true,
        () => false,
      );
      this.#shards.set(shard, made);
    }
    return made;
  }

  /** Runs a trim now, or once more after the one running: the last write is always followed by one. */
  #scheduleTrim(): void {
    if (this.#trimming !== undefined) {
      this.#trimAgain = true;
      return;
    }
    this.#writtenSinceTrim = 0;
    this.#trimming = this.#trim()
      .catch(() => undefined)
      .finally(() => {
        this.#trimming = undefined;
        if (this.#trimAgain) {
          this.#trimAgain = false;
          this.#scheduleTrim();
        }
      });
  }

  /** Deletes stale temporary files, then the least recently used entries and snapshots while the cache is over its cap. */
  async #trim(): Promise<void> {
    const shards = await readdir(this.#folder).catch(() => [] as string[]);
    const folders = [...shards.map((shard) => join(this.#folder, shard)), this.#snapshots, this.#compiler];
    const entries: EntryStats[] = [];
    for (const folder of folders) {
      const names = await readdir(folder).catch(() => [] as string[]);
      for (let start = 0; start < names.length; start += trimConcurrency) {
        const batch = names.slice(start, start + trimConcurrency).map((name) => join(folder, name));
        const stats = await Promise.all(batch.map((path) => stat(path).catch(() => undefined)));
        stats.forEach((stats, offset) => {
          const path = batch[offset];
          if (stats?.isFile() && path !== undefined)
            entries.push({ path, size: stats.size, mtimeMs: stats.mtimeMs });
        });
      }
    }
    const now = Date.now();
    let total = 0;
    const kept: EntryStats[] = [];
    for (const entry of entries) {
      if (entry.path.endsWith('.tmp') && now - entry.mtimeMs > staleTemporaryMs) {
        await unlink(entry.path).catch(() => undefined);
      } else {
        total += entry.size;
        kept.push(entry);
      }
    }
    if (total <= this.#maxBytes) return;
    kept.sort((left, right) => left.mtimeMs - right.mtimeMs);
    for (const entry of kept) {
      if (total <= this.#maxBytes * trimTarget) break;
      await unlink(entry.path).catch(() => undefined);
      total -= entry.size;
    }
  }
}
