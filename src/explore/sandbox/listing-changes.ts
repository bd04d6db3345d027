import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { DirectoryWatcher } from './directory-watcher.js';
import { isListingCurrent, listingDirectories, stampListing } from './listing-stamps.js';
import type { ListingStamps } from './listing-stamps.js';

/** What {@link ListingChanges.check} found since the listing was taken or last checked. */
export type ListingCheck =
  /** A file was added, deleted or renamed, or a `.gitignore` changed: list again. */
  | { readonly type: 'listing' }
  /** The listing holds; any of its files may have changed, so stat them all. */
  | { readonly type: 'all-files' }
  /** The listing holds; only these listed files may have changed (none when empty). */
  | { readonly type: 'files'; readonly files: ReadonlySet<string> };

/** Options of {@link ListingChanges}. */
export interface TrackListingOptions {
  /** When the walk that made the listing began (epoch ms). */
  readonly walkStartedAtMs: number;
  /** Watch the listing's folders with `fs.watch` rather than stat them on each check. @default true */
  readonly watch?: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Tells whether a file listing is still what a walk would give, and which of its files changed.
 * By stat'ing (the reference): each folder the walk read, and its `.gitignore`, keeps its stamp
 * (`isListingCurrent`), and any file may have changed. By watching, where `fs.watch` works: the
 * folders' events name the files that changed, so nothing else is stat'ed; a watcher failure or
 * an event without a name falls back to stat'ing.
 */
export class ListingChanges {
  readonly #root: string;
  readonly #listed: ReadonlySet<string>;
  readonly #directories: readonly string[];
  readonly #options: TrackListingOptions;
  /**
   * Set by `begin`; settles to `undefined` when a folder changed about the time of the walk (or
   * stamping failed), so the listing cannot be proven current.
   */
  #stamps: Promise<ListingStamps | undefined> | undefined;
  /** Set once every folder is watched; until then (and after a failure) checks stat. */
  #watcher: DirectoryWatcher | undefined;
  readonly #stopWatching = new AbortController();
  /** Whether a check has compared the stamps since every folder was watched: changes before that are no events. */
  #stampsCheckedWhileWatching = false;
  /**
   * The watcher that already watched every folder when the stamps were begun: a folder changed
   * before then has a modification time after the walk began (the listing is unprovable), one
   * changed after is an event, so with it the stamps need no comparing.
   */
  #watcherBeforeStamps: DirectoryWatcher | undefined;
  /** Settles once the watchers have started, or failed to (at once when not watching). */
  readonly #watcherStarted: Promise<void>;

  /**
   * Tracks `files`, the listing of a walk over `root` (the sandbox's `FileListing` names the
   * folders it read; a plain array is checked through the folders above its files). The folders
   * are watched from now on, in the background, so an edit right after the listing is seen;
   * they are stamped after {@link ListingChanges.begin}.
   */
  constructor(root: string, files: readonly string[], options: TrackListingOptions) {
    this.#root = root;
    this.#listed = new Set(files);
    this.#directories = listingDirectories(files);
    this.#options = options;
    this.#watcherStarted =
      options.watch === false
        ? Promise.resolve()
        : DirectoryWatcher.start(root, this.#directories, this.#stopWatching.signal).then((watcher) => {
            if (this.#stopWatching.signal.aborted) watcher?.close();
            else this.#watcher = watcher;
          });
  }

  /**
   * Stamps the folders in the background, once the watchers have started (once; a check begins by
   * itself). A caller that uses the walk's listing at once can begin after that use, so the
   * thousands of stats do not compete with it; a folder changed since the walk began leaves the
   * listing unprovable, so the next check lists again. Stamped after every folder is watched, the
   * stamps need no comparing at the first check: a later change is an event. Checks stat until
   * every folder is watched (`watching`); a caller that stats its files once after that can trust
   * the events.
   */
  begin(): void {
    if (this.#stamps !== undefined) return;
    const { walkStartedAtMs, signal } = this.#options;
    this.#stamps = this.#watcherStarted
      .then(() => {
        if (this.#watcher !== undefined && !this.#watcher.failed) this.#watcherBeforeStamps = this.#watcher;
        return stampListing(this.#root, this.#directories, walkStartedAtMs, signal);
      })
      .catch(() => undefined);
  }

  /** The folders' stamps (begun if not yet), or `undefined` when the listing cannot be proven current. */
  stamps(): Promise<ListingStamps | undefined> {
    this.begin();
    return this.#stamps ?? Promise.resolve(undefined);
  }

  /** False when a folder changed about the time of the walk: the listing cannot be proven current, so every check says list again. */
  async provable(): Promise<boolean> {
    return (await this.stamps()) !== undefined;
  }

  /** True while `fs.watch` reports the changes (no watcher failed). */
  get watching(): boolean {
    return this.#watcher !== undefined && !this.#watcher.failed;
  }

  /** What changed since the listing was taken or last checked. */
  async check(signal?: AbortSignal): Promise<ListingCheck> {
    this.begin();
    const stamps = await this.#stamps;
    if (stamps === undefined) return { type: 'listing' };
    if (this.#watcher === undefined || this.#watcher.failed) {
      return (await isListingCurrent(this.#root, stamps, signal))
        ? { type: 'all-files' }
        : { type: 'listing' };
    }
    const watcher = this.#watcher;
    const events = await watcher.take();
    if (watcher.failed || events.type === 'unknown') {
      return (await isListingCurrent(this.#root, stamps, signal))
        ? { type: 'all-files' }
        : { type: 'listing' };
    }
    if (!this.#stampsCheckedWhileWatching) {
      const current =
        watcher === this.#watcherBeforeStamps || (await isListingCurrent(this.#root, stamps, signal));
      if (!current) return { type: 'listing' };
      this.#stampsCheckedWhileWatching = true;
    }
    const files = new Set<string>();
    for (const path of events.changed) {
      if (isGitignore(path)) return { type: 'listing' };
      if (this.#listed.has(path)) files.add(path);
    }
    for (const path of events.renamed) {
      if (isGitignore(path)) return { type: 'listing' };
      const stats = await lstat(join(this.#root, path)).catch(() => undefined);
      const listed = this.#listed.has(path);
      // A listed file replaced by a rename (an editor's atomic save) is a change, not a new entry.
      if (stats?.isFile() === true && listed) files.add(path);
      else if (stats === undefined ? listed : stats.isFile() || stats.isDirectory())
        return { type: 'listing' };
    }
    return { type: 'files', files };
  }

  /** Stops watching (or starting to); later checks stat. */
  close(): void {
    this.#stopWatching.abort();
    this.#watcher?.close();
  }
}

function isGitignore(path: string): boolean {
  return path === '.gitignore' || path.endsWith('/.gitignore');
}
