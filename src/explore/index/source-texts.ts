import type { CodeIndexSandbox } from './code-index-sandbox.js';
import { isScriptFile } from './languages.js';
import type { KnownSources } from './file-source.js';
import type { RepositorySnapshot, SnapshotFile, StoredListing } from './cache/repository-snapshot.js';
import type { SnapshotStore } from './cache/snapshot-store.js';
import { SnapshotSaving } from './cache/snapshot-saving.js';
import { wordPieces, wordsOf } from './cache/word-set.js';
import { mtimeOfVersion } from './file-version.js';
import { readTexts } from './read-texts.js';
import type { RipgrepPrefilter } from './ripgrep-prefilter.js';
import { mayDeclareGlobals } from './may-declare-globals.js';
import { unreadEntry } from './source-entry.js';
import type { SourceEntry } from './source-entry.js';

/** Files whose words are gathered between two yields to the event loop while saving. */
const saveBatch = 200;
/**
 * A file modified this close before it was read may change again without changing its mtime (a
 * coarse clock, the same second): it is left out of the snapshot, and read again by the next process.
 */
const racyWindowMs = 3000;

/** With at least this many files to read, the prefilter asks ripgrep (when it has one) which to read first. */
const ripgrepMinFiles = 200;

/**
 * The text prefilter of the code index: which source files mention a name, so a question parses
 * those and not the repository. A file is read once per version; with a snapshot store, a file
 * whose version matches the last saved snapshot is not read at all (its words, key and globals
 * flag come from the snapshot), and what changed is saved back in the background. A file that
 * cannot be read (binary, too large, gone) is left out, as the parser leaves it out.
 */
export class SourceTexts implements KnownSources {
  readonly #sandbox: CodeIndexSandbox;
  readonly #maxFileBytes: number;
  readonly #store: SnapshotStore | undefined;
  readonly #saving: SnapshotSaving | undefined;
  readonly #ripgrep: RipgrepPrefilter | undefined;
  /** Words ripgrep was asked about since the last unread entries were made: no unread file mentions them. */
  readonly #scannedWords = new Set<string>();
  /** Bumped whenever unread entries are made, so a scan that overlapped it is not trusted for them. */
  #unreadGeneration = 0;
  #entries = new Map<string, SourceEntry>();
  #globals: readonly string[] = [];
  #loading: Promise<RepositorySnapshot | undefined> | undefined;
  #snapshot: RepositorySnapshot | undefined;
  #snapshotWords: readonly (readonly string[])[] | undefined;
  /** The last `update`, `prepare` or `readAll` begun (see `#inTurn`). */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(options: {
    readonly sandbox: CodeIndexSandbox;
    readonly maxFileBytes: number;
    /** Where to load the last snapshot from and save the next. @default none: every file is read */
    readonly snapshots?: SnapshotStore;
    /** The listing to store beside the files (and its stamps), asked at each save. @default none */
    readonly listing?: () => Promise<StoredListing | undefined>;
    /**
     * Ripgrep over the sandbox's files on disk: with hundreds of files to read, only those that
     * may declare globals are read at once, and a question's words are looked up by ripgrep
     * (`prepare`) before the rest is read by the background warming (`readSome`). @default none: every file is read at once
     */
    readonly ripgrep?: RipgrepPrefilter;
  }) {
    this.#sandbox = options.sandbox;
    this.#maxFileBytes = options.maxFileBytes;
    this.#store = options.snapshots;
    this.#saving =
      options.snapshots === undefined
        ? undefined
        : new SnapshotSaving({
            store: options.snapshots,
            files: () => this.#snapshotFiles(),
            listing: options.listing,
          });
    // Unread files must be readable on this thread (`containing`'s fallback).
    this.#ripgrep = options.sandbox.readTextSync === undefined ? undefined : options.ripgrep;
  }

  /** Starts loading the stored snapshot, so it is ready by the first `update`. */
  prefetch(): void {
    this.#loading ??= (this.#store?.read() ?? Promise.resolve(undefined)).catch(() => undefined);
  }

  /** The files the stored snapshot records (none without one): what the repository held when it was written. */
  async storedPaths(): Promise<readonly string[]> {
    this.prefetch();
    return (await this.#loading)?.paths ?? [];
  }

  /** The listing the stored snapshot holds, if any: for the caller to check against the folders' stamps before trusting it. */
  async storedListing(): Promise<StoredListing | undefined> {
    this.prefetch();
    return (await this.#loading)?.listing;
  }

  /**
   * Reads the files whose version changed since the last call (or since the snapshot) and forgets
   * those no longer listed. `versions` maps each source file to its `mtimeMs:size`.
   */
  update(
    versions: ReadonlyMap<string, string>,
    signal?: AbortSignal,
    /** The words of the question about to be asked: ripgrep looks for them in the same pass (see `prepare`). */
    words: readonly string[] = [],
  ): Promise<void> {
    return this.#inTurn(() => this.#update(versions, signal, words));
  }

  /** Runs `work` once the `update`, `prepare` or `readAll` begun before it has ended: two at once would read the same files. */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(work);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  async #update(
    versions: ReadonlyMap<string, string>,
    signal: AbortSignal | undefined,
    words: readonly string[],
  ): Promise<void> {
    this.prefetch();
    const first = this.#snapshot === undefined && this.#entries.size === 0;
    if (first) this.#snapshot = await this.#loading;
    const entries = new Map<string, SourceEntry>();
    const stale: string[] = [];
    for (const [path, version] of versions) {
      const known = this.#entries.get(path) ?? (first ? this.#trusted(path, version) : undefined);
      if (known?.version === version) entries.set(path, known);
      else stale.push(path);
    }
    const dropped = first ? (this.#snapshot?.size ?? 0) > entries.size : this.#entries.size > entries.size;
    if (stale.length === 0 && !dropped && !first) return;
    // With ripgrep, only the files that may declare globals are read now (the program needs them);
    // the rest stay unread until a question's words (`prepare`) or the background warming (`readSome`) reach them.
    const ripgrep =
      this.#ripgrep !== undefined && stale.length >= ripgrepMinFiles && (await this.#ripgrep.available())
        ? this.#ripgrep
        : undefined;
    const [globals, mentioning] = await Promise.all([
      ripgrep?.mayDeclareGlobals(stale.filter(isScriptFile), signal) ?? null,
      words.length === 0 ? null : (ripgrep?.filesMentioning(stale, words, signal) ?? null),
    ]);
    const now =
      globals === null ? stale : stale.filter((path) => globals.has(path) || mentioning?.has(path) === true);
    for (const path of stale) entries.set(path, unreadEntry(versions.get(path) ?? ''));
    if (globals !== null) {
      this.#unreadGeneration += 1;
      this.#scannedWords.clear();
      if (mentioning !== null) for (const word of words) this.#scannedWords.add(word);
    }
    await this.#read(now, entries, signal);
    this.#entries = entries;
    this.#findGlobals();
    if (stale.length > 0 || dropped) this.#changed();
  }

  /**
   * Makes sure no unread file mentions one of `words` unknown to the last `containing`: ripgrep
   * names the unread files that may, and those are read now. Without ripgrep (or when it fails)
   * every unread file is read.
   */
  prepare(words: readonly string[], signal?: AbortSignal): Promise<void> {
    return this.#inTurn(() => this.#prepare(words, signal));
  }

  async #prepare(words: readonly string[], signal: AbortSignal | undefined): Promise<void> {
    const asked = words.filter((word) => !this.#scannedWords.has(word));
    const unread = this.#unreadPaths();
    if (asked.length === 0 || unread.length === 0) return;
    const generation = this.#unreadGeneration;
    const found = (await this.#ripgrep?.filesMentioning(unread, asked, signal)) ?? null;
    await this.#read(
      found === null ? unread : unread.filter((path) => found.has(path)),
      this.#entries,
      signal,
    );
    this.#findGlobals();
    this.#changed();
    if (this.#unreadGeneration === generation) for (const word of asked) this.#scannedWords.add(word);
  }

  /**
   * Reads unread files for about `maxMilliseconds`, on this thread: one slice of the background
   * warming, so later questions and the next snapshot have their texts. Returns how many it read
   * (0 once none is left).
   */
  readSome(maxMilliseconds: number): number {
    const started = performance.now();
    let read = 0;
    for (const [path, entry] of this.#entries) {
      if (!entry.unread) continue;
      if (performance.now() - started >= maxMilliseconds) break;
      this.#settle(entry, this.#readSync(path));
      read += 1;
    }
    if (read > 0) {
      this.#findGlobals();
      this.#changed();
    }
    return read;
  }

  /** How many files are unread. */
  get unreadCount(): number {
    let count = 0;
    for (const entry of this.#entries.values()) if (entry.unread) count += 1;
    return count;
  }

  #unreadPaths(): string[] {
    return [...this.#entries].filter(([, entry]) => entry.unread).map(([path]) => path);
  }

  #findGlobals(): void {
    this.#globals = [...this.#entries]
      .filter(([path, entry]) => isScriptFile(path) && entry.mayDeclareGlobals)
      .map(([path]) => path);
  }

  /** Reads the unread entries of `paths` in `entries` (synchronously in time slices when the sandbox can); an unreadable file becomes no file. */
  async #read(
    paths: readonly string[],
    entries: Map<string, SourceEntry>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const unread = paths.filter((path) => entries.get(path)?.unread === true);
    await readTexts(this.#sandbox, unread, { maxBytes: this.#maxFileBytes, signal }, (path, text) => {
      const entry = entries.get(path);
      if (entry !== undefined) this.#settle(entry, text);
    });
  }

  /** The text of `path` read on this thread, or `undefined` when it is unreadable (the parser skips it too). */
  #readSync(path: string): string | undefined {
    try {
      return this.#sandbox.readTextSync?.(path, { maxBytes: this.#maxFileBytes }).text;
    } catch {
      return undefined;
    }
  }

  /** Records what reading an unread entry found; an entry read meanwhile is left as it is. */
  #settle(entry: SourceEntry, text: string | undefined): void {
    if (!entry.unread) return;
    entry.unread = false;
    entry.text = text;
    entry.mayDeclareGlobals = text !== undefined && mayDeclareGlobals(text);
    entry.readAt = Date.now();
  }

  /** The files among `paths` whose text contains any of `words`, in the order of `paths`. */
  containing(paths: Iterable<string>, words: readonly string[]): string[] {
    const found: string[] = [];
    let fromSnapshot: Set<number> | 'all' | undefined;
    for (const path of paths) {
      const entry = this.#entries.get(path);
      if (entry === undefined) continue;
      if (entry.unread) {
        if (words.every((word) => this.#scannedWords.has(word))) continue;
        // A word no `prepare` asked ripgrep about: every unread file is read, here and now.
        this.#readUnreadNow();
      }
      const { text, ordinal } = entry;
      if (text !== undefined) {
        if (words.some((word) => text.includes(word))) found.push(path);
      } else if (ordinal !== undefined) {
        fromSnapshot ??= this.#snapshotFilesWithAny(words);
        if (fromSnapshot === 'all' || fromSnapshot.has(ordinal)) found.push(path);
      }
    }
    return found;
  }

  /** Reads every unread file at once, on this thread: the fallback of `containing` for a word no `prepare` asked about. */
  #readUnreadNow(): void {
    for (const [path, entry] of this.#entries) if (entry.unread) this.#settle(entry, this.#readSync(path));
    this.#findGlobals();
    this.#changed();
  }

  /** The JS/TS files that may declare globals (see {@link mayDeclareGlobals}), as of the last `update`. */
  globalScriptFiles(): readonly string[] {
    return this.#globals;
  }

  /** The text read and the key known for `path` at `version`, if any. */
  sourceOf(path: string, version: string): { readonly text?: string; readonly key?: string } | undefined {
    const entry = this.#entries.get(path);
    if (entry?.version !== version) return undefined;
    return {
      ...(entry.text === undefined ? {} : { text: entry.text }),
      ...(entry.key === undefined ? {} : { key: entry.key }),
    };
  }

  /** Records the parse cache key computed from the text of `path` at `version`, for the next snapshot. */
  keyed(path: string, version: string, key: string): void {
    const entry = this.#entries.get(path);
    if (entry?.version !== version || entry.key === key) return;
    entry.key = key;
    entry.keyedAt = Date.now();
    this.#changed();
  }

  /** The snapshot's record of `path` as an entry, when it has one at `version`. */
  #trusted(path: string, version: string): SourceEntry | undefined {
    const record = this.#snapshot?.lookup(path, version);
    if (record === undefined) return undefined;
    return {
      version,
      text: undefined,
      unread: false,
      ordinal: record.ordinal,
      mayDeclareGlobals: record.mayDeclareGlobals,
      readAt: Number.POSITIVE_INFINITY,
      key: record.key,
      keyedAt: Number.POSITIVE_INFINITY,
      words: undefined,
    };
  }

  /** The snapshot's files holding all the word pieces of any of `words`; `all` when a word has no pieces. */
  #snapshotFilesWithAny(words: readonly string[]): Set<number> | 'all' {
    const found = new Set<number>();
    for (const word of words) {
      const pieces = wordPieces(word);
      if (pieces.length === 0) return 'all';
      for (const ordinal of this.#snapshot?.filesWithAll(pieces) ?? []) found.add(ordinal);
    }
    return found;
  }

  /**
   * Reads every unread file now (synchronously in time slices when the sandbox can): for a
   * question that needs every file, such as the repo map, and before a save.
   */
  readAll(signal?: AbortSignal): Promise<void> {
    return this.#inTurn(() => this.#readAll(signal));
  }

  async #readAll(signal: AbortSignal | undefined): Promise<void> {
    const unread = this.#unreadPaths();
    if (unread.length === 0) return;
    await this.#read(unread, this.#entries, signal);
    this.#findGlobals();
    this.#changed();
  }

  /** Reads what is unread and saves pending changes now rather than after the delay; resolves once every save under way is written. */
  async flush(): Promise<void> {
    if (this.#saving === undefined) return;
    // The snapshot is to hold every file: what is unread yet is read first.
    await this.readAll();
    await this.#saving.flush();
  }

  /** Schedules a save of the snapshot (see `SnapshotSaving`). */
  #changed(): void {
    this.#saving?.changed();
  }

  /** The entries to record in the next snapshot, with their words; the event loop runs between batches. */
  async #snapshotFiles(): Promise<SnapshotFile[]> {
    const entries = [...this.#entries].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    const files: SnapshotFile[] = [];
    for (let start = 0; start < entries.length; start += saveBatch) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const [path, entry] of entries.slice(start, start + saveBatch)) {
        // Unread, or read and unreadable: nothing to trust.
        if (entry.text === undefined && entry.ordinal === undefined) continue;
        const mtime = mtimeOfVersion(entry.version);
        if (!(mtime < entry.readAt - racyWindowMs)) continue;
        files.push({
          path,
          version: entry.version,
          key: mtime < entry.keyedAt - racyWindowMs ? entry.key : undefined,
          mayDeclareGlobals: entry.mayDeclareGlobals,
          words: this.#wordsOf(entry),
        });
      }
    }
    return files;
  }

  #wordsOf(entry: SourceEntry): readonly string[] {
    if (entry.words !== undefined) return entry.words;
    if (entry.text !== undefined) entry.words = wordsOf(entry.text);
    else if (entry.ordinal !== undefined) {
      this.#snapshotWords ??= this.#snapshot?.wordsByFile() ?? [];
      entry.words = this.#snapshotWords[entry.ordinal] ?? [];
    }
    return entry.words ?? [];
  }
}
