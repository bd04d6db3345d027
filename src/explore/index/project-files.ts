import type { ParsedFile } from './code-symbol.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';
import { isScriptFile, languageOf } from './languages.js';
import { statVersion, watchedVersion } from './file-version.js';
import { ListingChanges } from '../sandbox/listing-changes.js';
import { listingToStore, reusableListing } from './stored-listing.js';
import { statVersions } from './stat-versions.js';
import type { FileSource, KnownSources, SourceParser } from './file-source.js';
import type { StoredListing } from './cache/repository-snapshot.js';

const parseConcurrency = 64;

/** Source files and their versions, and whether every folder was watched from before the stats. */
interface Stated {
  readonly files: readonly string[];
  readonly versions: Map<string, string>;
  readonly watched: boolean;
}

/** Closes the watchers of a `ProjectFiles` dropped without `close()`: they would hold inotify watches until exit. */
const unwatchOnCollect = new FinalizationRegistry<ListingChanges>((changes) => changes.close());

/** Options of {@link ProjectFiles}. */
export interface ProjectFilesOptions {
  readonly sandbox: CodeIndexSandbox;
  /** Larger files are not indexed. */
  readonly maxFileBytes: number;
  /** Resolves the parser on each parse-cache miss; it should cache, as it is called per file. */
  readonly loadParser: () => Promise<SourceParser>;
  /** Texts and keys already known, handed to the parser rather than read again. @default none */
  readonly sources?: KnownSources;
  /** Learn of changes from `fs.watch` events rather than by stat'ing every file per query. @default true */
  readonly watch?: boolean;
  /**
   * A listing stored by an earlier process: the first listing is that one, rather than a walk,
   * when the sandbox's `listingIdentity` is the one it was stored under and every folder's stamp
   * still holds. @default none: the first listing walks
   */
  readonly storedListing?: () => Promise<StoredListing | undefined>;
}

interface CachedParse {
  readonly version: string;
  /** The parse, cached as a promise so that concurrent queries share one while it runs. */
  readonly file: Promise<ParsedFile | undefined>;
}

/**
 * The index's view of the repo: the listing of source files (listed again when `ListingChanges`
 * sees a file added, deleted or renamed or a `.gitignore` changed, or after `refresh`), each
 * file's `mtimeMs:size` version (re-checked once per query: only the files named by `fs.watch`
 * events while the folders are watched, else every file), and parse results cached by version.
 */
export class ProjectFiles {
  readonly #sandbox: CodeIndexSandbox;
  readonly #maxFileBytes: number;
  readonly #loadParser: () => Promise<SourceParser>;
  readonly #sources: KnownSources | undefined;
  readonly #storedListing: (() => Promise<StoredListing | undefined>) | undefined;
  #watch: boolean;
  #listing: Promise<readonly string[]> | undefined;
  /** A listing no revalidate has used yet: the walk itself is its check, so its folders need no stat'ing again. */
  #uncheckedListing: Promise<readonly string[]> | undefined;
  /** What changed since the current listing was taken; settles once its watchers run. */
  #changes: Promise<ListingChanges | undefined> | undefined;
  /**
   * True when the versions came from stats made while every folder was watched, and no revalidate
   * failed since: then the events name every later change. Otherwise the next revalidate stats
   * every file.
   */
  #versionsCurrent = false;
  /** The revalidate under way: they run one at a time, since each takes the events it answers. */
  #revalidating: Promise<void> = Promise.resolve();
  /** Bumped per file change seen by a watcher, so an edit keeping mtime and size still makes a new version. */
  #watchedChanges = 0;
  #lastListing: readonly string[] | undefined;
  /** The files of a listing in a supported language, kept for the listing they were taken from. */
  #sourceFiles: { readonly listing: readonly string[]; readonly files: readonly string[] } | undefined;
  #versions = new Map<string, string>();
  #scriptFiles: readonly string[] = [];
  readonly #parses = new Map<string, CachedParse>();
  #generation = 0;

  constructor(options: ProjectFilesOptions) {
    this.#sandbox = options.sandbox;
    this.#maxFileBytes = options.maxFileBytes;
    this.#loadParser = options.loadParser;
    this.#sources = options.sources;
    this.#watch = options.watch ?? true;
    this.#storedListing = options.storedListing;
  }

  /** Bumped whenever a `revalidate` sees a file added, removed or changed: answers cached under one generation stay exact. */
  get generation(): number {
    return this.#generation;
  }

  /** Forgets the listing so the next query lists the repo again (new and deleted files). */
  refresh(): void {
    this.#listing = undefined;
  }

  /** Stops watching the folders; later queries stat. */
  close(): void {
    this.#watch = false;
    void this.#changes?.then((changes) => {
      if (changes === undefined) return;
      unwatchOnCollect.unregister(changes);
      changes.close();
    });
  }

  /** True while changes are learnt from `fs.watch` events (no watcher failed). */
  async watching(): Promise<boolean> {
    return (await this.#changes)?.watching === true;
  }

  /**
   * Every visible file, repo-relative and sorted, listed once until `revalidate` sees a folder
   * change or `refresh` is called. A new listing with the same files is the same array, so what
   * is built per listing (the module resolver) is kept.
   */
  list(signal?: AbortSignal): Promise<readonly string[]> {
    if (this.#listing !== undefined) return this.#listing;
    const walkStartedAtMs = Date.now();
    const walked = this.#lastListing === undefined ? this.#storedOrWalked(signal) : this.#walk(signal);
    const listing = walked.then((files) => {
      const previous = this.#lastListing;
      const same =
        previous?.length === files.length && files.every((file, index) => previous[index] === file);
      this.#lastListing = same ? previous : files;
      return this.#lastListing;
    });
    this.#listing = listing;
    this.#uncheckedListing = listing;
    void this.#changes?.then((previous) => {
      if (previous === undefined) return;
      unwatchOnCollect.unregister(previous);
      previous.close();
    });
    // Tracked from the walk itself, which names the folders it read (a kept listing may not).
    // The first listing's folders are stamped once its question is answered (`track`), so a first
    // answer does not wait behind them; a listing taken again later is stamped at once.
    const first = this.#changes === undefined;
    const changes = walked
      .then((files) => {
        const tracked = new ListingChanges(this.#sandbox.root, files, {
          walkStartedAtMs,
          watch: this.#watch,
        });
        if (!first) tracked.begin();
        return tracked;
      })
      .catch(() => undefined);
    this.#changes = changes;
    void changes.then((tracked) => {
      if (tracked === undefined) return;
      if (this.#changes === changes) unwatchOnCollect.register(this, tracked, tracked);
      else tracked.close();
    });
    listing.catch(() => {
      if (this.#listing === listing) this.#listing = undefined;
    });
    return listing;
  }

  #walk(signal: AbortSignal | undefined): Promise<readonly string[]> {
    return this.#sandbox.listFiles(signal === undefined ? {} : { signal });
  }

  /** The stored listing while it holds (`reusableListing`), else a walk. */
  async #storedOrWalked(signal: AbortSignal | undefined): Promise<readonly string[]> {
    const stored =
      this.#sandbox.listingIdentity === undefined
        ? undefined
        : await this.#storedListing?.().catch(() => undefined);
    return (await reusableListing(this.#sandbox, stored, signal)) ?? this.#walk(signal);
  }

  /** The current listing with its folders' stamps, for a later process to reuse (see `storedListing` and `listingToStore`). */
  async listingToStore(): Promise<StoredListing | undefined> {
    const listing = this.#listing;
    const changes = this.#changes;
    if (listing === undefined || changes === undefined) return undefined;
    const [files, tracked] = await Promise.all([listing, changes]);
    return listingToStore(this.#sandbox, files, tracked);
  }

  /** JS/TS files within the size limit, as of the last `revalidate`. */
  scriptFiles(): readonly string[] {
    return this.#scriptFiles;
  }

  /** `mtimeMs:size` of a file as of the last `revalidate`, or `undefined` when unknown or too large. */
  versionOf(path: string): string | undefined {
    return this.#versions.get(path);
  }

  /** `mtimeMs:size` of every source file within the size limit, as of the last `revalidate`. */
  versions(): ReadonlyMap<string, string> {
    return this.#versions;
  }

  /**
   * Brings the file versions up to date and drops parse results of files that changed: lists the
   * repo again first when a file was added, deleted or renamed or a `.gitignore` changed, then
   * stats the files that may have changed (those named by watcher events, or every listed file).
   */
  revalidate(signal?: AbortSignal): Promise<void> {
    const run = this.#revalidating.then(() => this.#revalidateNow(signal));
    this.#revalidating = run.catch(() => undefined);
    return run;
  }

  async #revalidateNow(signal: AbortSignal | undefined): Promise<void> {
    const trusted = this.#versionsCurrent;
    this.#versionsCurrent = false;
    const listing = this.#listing;
    const changes = await this.#changes;
    const fresh = listing !== undefined && listing === this.#uncheckedListing;
    let stated: Stated;
    if (listing === undefined || changes === undefined) {
      if (this.#listing === listing) this.#listing = undefined;
      stated = await this.#statListed(signal);
    } else if (fresh) {
      stated = await this.#statListed(signal);
    } else if (changes.watching) {
      const check = await changes.check(signal);
      if (check.type === 'listing' && this.#listing === listing) this.#listing = undefined;
      stated =
        check.type === 'files' && trusted
          ? await this.#statChanged(listing, check.files, signal, changes)
          : await this.#statListed(signal);
    } else {
      // The folder check runs beside the file stats; a changed listing means listing and stat'ing again.
      const [check, all] = await Promise.all([changes.check(signal), this.#statListed(signal)]);
      stated = all;
      if (check.type === 'listing') {
        if (this.#listing === listing) this.#listing = undefined;
        stated = await this.#statListed(signal);
      }
    }
    const { files, versions } = stated;
    const unchanged = files.every((file) => versions.get(file) === this.#versions.get(file));
    if (!unchanged || versions.size !== this.#versions.size) {
      this.#generation += 1;
      this.#versions = versions;
      this.#scriptFiles = files.filter((file) => versions.has(file) && isScriptFile(file));
    }
    for (const path of this.#parses.keys()) {
      if (this.#parses.get(path)?.version !== versions.get(path)) this.#parses.delete(path);
    }
    this.#versionsCurrent = stated.watched;
    // A listing taken during this revalidate (after a check found the old one stale) has served too.
    this.#uncheckedListing = undefined;
  }

  /**
   * Begins stamping the current listing's folders, in the background (see `ListingChanges.begin`;
   * they are watched from the walk on): for a caller to call once the question that listed is
   * answered, so that work does not compete with it. The next check begins it otherwise.
   */
  track(): void {
    void this.#changes?.then((changes) => changes?.begin());
  }

  /** The current versions with those of `changed` stat'ed again; a version that looks the same gets a new suffix. */
  async #statChanged(
    listing: Promise<readonly string[]>,
    changed: ReadonlySet<string>,
    signal: AbortSignal | undefined,
    changes: ListingChanges,
  ): Promise<Stated> {
    const files = this.#sourceFilesOf(await listing);
    if (changed.size === 0) return { files, versions: this.#versions, watched: changes.watching };
    const versions = new Map(this.#versions);
    const paths = [...changed].filter((path) => languageOf(path) !== undefined);
    const stats = await statVersions(this.#sandbox.root, this.#maxFileBytes, paths, signal);
    paths.forEach((path, index) => {
      const version = stats[index];
      if (version === undefined) versions.delete(path);
      else {
        this.#watchedChanges += 1;
        versions.set(path, watchedVersion(this.#versions.get(path), version, this.#watchedChanges));
      }
    });
    return { files, versions, watched: changes.watching };
  }

  /** The listed files in a supported language, and the `mtimeMs:size` of those that are files within the size limit. */
  async #statListed(signal: AbortSignal | undefined): Promise<Stated> {
    const files = this.#sourceFilesOf(await this.list(signal));
    // Watched from before the first stat: a change after a file's stat is an event.
    const watched = (await this.#changes)?.watching === true;
    const stats = await statVersions(this.#sandbox.root, this.#maxFileBytes, files, signal);
    const versions = new Map<string, string>();
    files.forEach((file, index) => {
      const version = stats[index];
      if (version !== undefined) versions.set(file, version);
    });
    return { files, versions, watched };
  }

  #sourceFilesOf(listing: readonly string[]): readonly string[] {
    if (this.#sourceFiles?.listing !== listing) {
      this.#sourceFiles = { listing, files: listing.filter((file) => languageOf(file) !== undefined) };
    }
    return this.#sourceFiles.files;
  }

  /** Parses one file through the sandbox (so a bad path gets the sandbox's error), cached by version. */
  async parse(path: string): Promise<ParsedFile | undefined> {
    const info = await this.#sandbox.stat(path);
    return this.#parseVersion(path, statVersion(info));
  }

  /** True when the parse of `path` at its version as of the last `revalidate` is held (done or under way). */
  hasParse(path: string): boolean {
    const version = this.#versions.get(path);
    return version !== undefined && this.#parses.get(path)?.version === version;
  }

  /** The files among `files` known to the last `revalidate`, parsed in their order; unreadable and unknown files are skipped. */
  async parseSome(files: readonly string[], signal?: AbortSignal): Promise<ParsedFile[]> {
    const parsed: ParsedFile[] = [];
    for (let start = 0; start < files.length; start += parseConcurrency) {
      signal?.throwIfAborted();
      const batch = files.slice(start, start + parseConcurrency);
      const results = await Promise.all(batch.map((file) => this.#parseKnown(file)));
      for (const result of results) if (result !== undefined) parsed.push(result);
    }
    return parsed;
  }

  async #parseKnown(path: string): Promise<ParsedFile | undefined> {
    const version = this.#versions.get(path);
    if (version === undefined) return undefined;
    try {
      return await this.#parseVersion(path, version);
    } catch {
      return undefined;
    }
  }

  /**
   * The parse of `path` at `version`: the cached one, the one under way (two queries on a fresh
   * index share it, rather than each parsing every file), or a new one. A failed parse is not kept.
   */
  #parseVersion(path: string, version: string): Promise<ParsedFile | undefined> {
    const cached = this.#parses.get(path);
    if (cached?.version === version) return cached.file;
    const file = this.#loadParser().then((parseSource) => parseSource(this.#source(path, version)));
    const entry: CachedParse = { version, file };
    this.#parses.set(path, entry);
    file.catch(() => {
      if (this.#parses.get(path) === entry) this.#parses.delete(path);
    });
    return file;
  }

  /**
   * `path` at `version` as the parser gets it: a text or key already known, else a read (started
   * now when there is no key to try first), on this thread when the sandbox can: a cache miss of
   * a repository map reads thousands of small files, which cost less so than as thread-pool round trips.
   */
  #source(path: string, version: string): FileSource {
    const known = this.#sources?.sourceOf(path, version);
    let text: Promise<string> | undefined =
      known?.text === undefined ? undefined : Promise.resolve(known.text);
    const limits = { maxBytes: this.#maxFileBytes };
    const readTextSync = this.#sandbox.readTextSync?.bind(this.#sandbox);
    const read = (): Promise<string> =>
      (text ??=
        readTextSync === undefined
          ? this.#sandbox.readText(path, limits).then((read) => read.text)
          : Promise.resolve().then(() => readTextSync(path, limits).text));
    if (known?.key === undefined) void read().catch(() => undefined);
    return {
      path,
      ...(known?.key === undefined ? {} : { key: known.key }),
      text: read,
      keyed: (key) => this.#sources?.keyed(path, version, key),
    };
  }
}
