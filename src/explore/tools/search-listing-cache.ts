import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileListing, ListFilesOptions, Sandbox } from '../sandbox/sandbox.js';
import { mapBounded } from '../sandbox/walk-files.js';

/** What {@link SearchListingCache.list} needs: the sandbox's listing options. */
export interface SearchListingRequest {
  readonly path: string;
  readonly pattern?: string;
  readonly signal?: AbortSignal;
}

/** A change newer than this before a walk began may share a timestamp tick with it, so it proves nothing. */
const racyWindowMs = 2_000;
/** Listings kept per tool: one per distinct path and glob asked for recently. */
const maxEntries = 16;

interface Entry {
  readonly listing: FileListing;
  /** Wall-clock time just before the walk started. */
  readonly takenAtMs: number;
  /** Per directory read: its own change stamp and its `.gitignore`'s, in `listing.directories` order. */
  readonly stamps: readonly string[];
}

/**
 * The sandbox's file listings for `search_text`, kept between searches and reused only while
 * provably current: every directory the walk read still has the modification time it had (a
 * file added, deleted or renamed in it changes that), and so does each `.gitignore` there. A
 * stamp too close to the walk's start is racy (the file system's clock ticks coarsely), so the
 * tree is walked again. Truncated listings and single files are never kept.
 */
export class SearchListingCache {
  readonly #sandbox: Sandbox;
  readonly #entries = new Map<string, Entry>();

  constructor(sandbox: Sandbox) {
    this.#sandbox = sandbox;
  }

  /** The listing `sandbox.listFiles` would return now, from the cache when it is still current. */
  async list(request: SearchListingRequest): Promise<FileListing> {
    const key = JSON.stringify([request.path, request.pattern ?? null]);
    const cached = this.#entries.get(key);
    if (cached !== undefined) {
      this.#entries.delete(key);
      if (await this.#isCurrent(cached)) {
        this.#entries.set(key, cached);
        return cached.listing;
      }
    }
    const takenAtMs = Date.now();
    const options: ListFilesOptions = {
      path: request.path,
      ...(request.pattern === undefined ? {} : { pattern: request.pattern }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    };
    // Stamps taken before the walk: a change during the walk makes them differ next time.
    const listing = await this.#sandbox.listFiles(options);
    if (listing.truncated || listing.directories.length === 0) return listing;
    const stamps = await this.#stamps(listing.directories);
    const entry: Entry = { listing, takenAtMs, stamps };
    if (!this.#isRacy(entry)) {
      this.#entries.set(key, entry);
      if (this.#entries.size > maxEntries) this.#entries.delete(this.#entries.keys().next().value ?? key);
    }
    return listing;
  }

  async #isCurrent(entry: Entry): Promise<boolean> {
    const stamps = await this.#stamps(entry.listing.directories, entry.stamps);
    return stamps.every((stamp, index) => stamp === entry.stamps[index]);
  }

  /** True when a directory or `.gitignore` changed so shortly before the walk that a later change could share its stamp. */
  #isRacy(entry: Entry): boolean {
    // Adding, deleting or editing sets the modification time to the clock's current tick.
    const modifiedNs = entry.stamps.flatMap((stamp) =>
      stamp.split('|').flatMap((part) => (part === '-' ? [] : part.split(':').slice(0, 1))),
    );
    return modifiedNs.some((timeNs) => Number(timeNs) / 1e6 >= entry.takenAtMs - racyWindowMs);
  }

  /**
   * `mtimeNs:ctimeNs:size:inode` of each directory, then `|` and the same of its `.gitignore`
   * ('-' when absent). With `previous`, a `.gitignore` that was absent is not looked for again:
   * creating one changes its directory's stamp.
   */
  async #stamps(directories: readonly string[], previous?: readonly string[]): Promise<string[]> {
    const stampOf = async (path: string): Promise<string> => {
      try {
        const stats = await stat(path, { bigint: true });
        return `${stats.mtimeNs}:${stats.ctimeNs}:${stats.size}:${stats.ino}`;
      } catch {
        return '-';
      }
    };
    return mapBounded(
      directories.map((directory, index) => ({ directory, index })),
      async ({ directory, index }) => {
        const absolute = join(this.#sandbox.root, directory);
        const hadGitignore = previous === undefined || !(previous[index] ?? '').endsWith('|-');
        const [own, gitignore] = await Promise.all([
          stampOf(absolute),
          hadGitignore ? stampOf(join(absolute, '.gitignore')) : '-',
        ]);
        return `${own}|${gitignore}`;
      },
      64,
    );
  }
}
