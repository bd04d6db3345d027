import type { FileListing, ListFilesOptions, Sandbox } from '../sandbox/sandbox.js';
import { ListingChanges } from '../sandbox/listing-changes.js';

/** What {@link SearchListingCache.list} needs: the sandbox's listing options. */
export interface SearchListingRequest {
  readonly path: string;
  readonly pattern?: string;
  readonly signal?: AbortSignal;
}

/** Listings kept per tool: one per distinct path and glob asked for recently. */
const maxEntries = 16;

interface Entry {
  readonly listing: FileListing;
  readonly changes: ListingChanges;
}

/**
 * The sandbox's file listings for `search_text`, kept between searches and reused only while
 * provably current, by the code index's check (`ListingChanges`, stat'ing: every directory the
 * walk read, and each `.gitignore` there, still has its stamp). A stamp too close to the walk's
 * start is racy, so the tree is walked again. Truncated listings and single files are never kept.
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
      if ((await cached.changes.check(request.signal)).type !== 'listing') {
        this.#entries.set(key, cached);
        return cached.listing;
      }
    }
    const walkStartedAtMs = Date.now();
    const options: ListFilesOptions = {
      path: request.path,
      ...(request.pattern === undefined ? {} : { pattern: request.pattern }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    };
    const listing = await this.#sandbox.listFiles(options);
    if (listing.truncated || listing.directories.length === 0) return listing;
    const changes = new ListingChanges(this.#sandbox.root, listing, {
      walkStartedAtMs,
      watch: false,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    if (await changes.provable()) {
      this.#entries.set(key, { listing, changes });
      if (this.#entries.size > maxEntries) this.#entries.delete(this.#entries.keys().next().value ?? key);
    }
    return listing;
  }
}
