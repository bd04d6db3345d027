import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedParseCacheOptions } from './parse-cache-options.js';
import { readTouched } from './read-touched.js';
import { parseCacheFor, snapshotFolder } from './parse-cache.js';
import { RepositorySnapshot } from './repository-snapshot.js';
import type { SnapshotFile, SnapshotOwner, StoredListing } from './repository-snapshot.js';

/**
 * Where one repository's snapshot lives in the cache folder: one file, named by a SHA-256 of the
 * repository's real root and the parser identity. Written to a temporary file renamed into place,
 * so a reader sees a whole snapshot or none and two processes saving at once leave one of theirs;
 * a snapshot that fails its checks is ignored (and replaced by the next save). Counted in the
 * cache's size cap. File system errors make it do less, never throw.
 */
export class SnapshotStore {
  readonly #options: ResolvedParseCacheOptions;
  readonly #owner: SnapshotOwner;
  readonly #location: string;

  constructor(options: ResolvedParseCacheOptions, owner: SnapshotOwner) {
    this.#options = options;
    this.#owner = owner;
    const name = createHash('sha256').update(owner.root).update('\0').update(owner.identity).digest('hex');
    this.#location = join(snapshotFolder(options.directory), name.slice(0, 40));
  }

  /** The path of the snapshot file. */
  get location(): string {
    return this.#location;
  }

  /** The stored snapshot, or `undefined` when there is none or it is damaged or not this repository's. */
  async read(): Promise<RepositorySnapshot | undefined> {
    const bytes = await readTouched(this.#location);
    return bytes === undefined ? undefined : RepositorySnapshot.decode(bytes, this.#owner);
  }

  /** Replaces the stored snapshot with one of `files` (and `listing`); resolves when written, or given up on. */
  async write(files: readonly SnapshotFile[], listing?: StoredListing): Promise<void> {
    const temporary = `${this.#location}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const bytes = RepositorySnapshot.encode(this.#owner, files, listing);
      await mkdir(snapshotFolder(this.#options.directory), { recursive: true });
      await writeFile(temporary, bytes);
      await rename(temporary, this.#location);
      parseCacheFor(this.#options).written(bytes.length);
    } catch {
      await unlink(temporary).catch(() => undefined);
    }
  }
}
