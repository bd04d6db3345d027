import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** More folders than this are not watched (each costs an inotify watch, a per-user resource); the caller stats instead. */
export const maxWatchedDirectories = 20_000;
/** Folders watched per turn of the event loop while starting: a few thousand `fs.watch` calls would block it for hundreds of ms. */
const startBatch = 128;
/** Past this many events between two takes the names are not kept: a branch switch, or an event queue that may have overflowed. */
const maxNamedEvents = 2_000;

/** What changed in the watched folders since the last {@link DirectoryWatcher.take}. */
export type DirectoryEvents =
  | {
      readonly type: 'named';
      /** Repo-relative paths added, deleted or renamed (or replaced by a rename) in a watched folder. */
      readonly renamed: ReadonlySet<string>;
      /** Repo-relative paths whose content or attributes changed. */
      readonly changed: ReadonlySet<string>;
    }
  /** The events cannot be trusted to name every change (too many, one without a name): check everything. */
  | { readonly type: 'unknown' };

/**
 * Watches a fixed set of folders, each on its own (not recursively), with `fs.watch`, and collects
 * the names of the entries that changed in them. The watchers never keep the process alive. On
 * any watcher error (a watched folder deleted, the system out of watches) it closes itself and
 * reports `failed`, so the caller falls back to stat'ing.
 */
export class DirectoryWatcher {
  readonly #watchers: FSWatcher[] = [];
  #renamed = new Set<string>();
  #changed = new Set<string>();
  #unknown = false;
  #failed = false;
  #closed = false;

  /**
   * Starts watching `directories` (repo-relative, '' for the root) under `root`, a batch per turn
   * of the event loop; resolves once every folder is watched.
   *
   * @returns `undefined` when they cannot all be watched: too many, `fs.watch` unsupported, an
   *   error such as `ENOSPC` (no inotify watches left), or `signal` aborted meanwhile.
   */
  static async start(
    root: string,
    directories: readonly string[],
    signal?: AbortSignal,
  ): Promise<DirectoryWatcher | undefined> {
    if (directories.length > maxWatchedDirectories) return undefined;
    const watcher = new DirectoryWatcher();
    try {
      for (let start = 0; start < directories.length; start += startBatch) {
        if (start > 0) await new Promise((resolve) => setImmediate(resolve));
        if (signal?.aborted === true || watcher.failed) throw new Error('stopped');
        for (const directory of directories.slice(start, start + startBatch)) watcher.#add(root, directory);
      }
    } catch {
      watcher.close();
      return undefined;
    }
    return watcher;
  }

  /** True once a watcher failed or {@link DirectoryWatcher.close} was called: events may be missed, so check by stat'ing. */
  get failed(): boolean {
    return this.#failed || this.#closed;
  }

  /**
   * The events since the last take, after letting the ones already queued by the system arrive,
   * so a change made before the call is in the answer.
   */
  async take(): Promise<DirectoryEvents> {
    // Two turns of the event loop: the second one polls for file system events after the call.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const events: DirectoryEvents = this.#unknown
      ? { type: 'unknown' }
      : { type: 'named', renamed: this.#renamed, changed: this.#changed };
    this.#renamed = new Set();
    this.#changed = new Set();
    this.#unknown = false;
    return events;
  }

  /** Stops every watcher. */
  close(): void {
    this.#closed = true;
    for (const watcher of this.#watchers) watcher.close();
    this.#watchers.length = 0;
  }

  #add(root: string, directory: string): void {
    const watcher = watch(join(root, directory), { persistent: false }, (type, name) => {
      if (name === null || this.#renamed.size + this.#changed.size >= maxNamedEvents) {
        this.#unknown = true;
        return;
      }
      const path = directory === '' || directory === '.' ? String(name) : `${directory}/${String(name)}`;
      (type === 'rename' ? this.#renamed : this.#changed).add(path);
    });
    watcher.on('error', () => {
      this.#failed = true;
      this.close();
    });
    this.#watchers.push(watcher);
  }
}
