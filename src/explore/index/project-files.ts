import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import type { ParsedFile } from './code-symbol.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';
import { isScriptFile, languageOf } from './languages.js';
import { directoriesChanged, directoryVersions } from './directory-versions.js';
import type { DirectoryVersions } from './directory-versions.js';

const statConcurrency = 64;

/** Parses one file's text (`parseFile`); `undefined` for files in no supported language. */
export type FileParser = (path: string, text: string) => Promise<ParsedFile | undefined>;

/** A file to parse: its path, what is already known of its current version, and how to get its text. */
export interface FileSource {
  readonly path: string;
  /** The parse cache's key of this version's text, when known: a cached parse is found without reading the file. */
  readonly key?: string;
  /** The text: the one already read when there is one, else read through the sandbox (once). */
  text(): Promise<string>;
  /** Told the key of the text once it is computed from it. */
  keyed?(key: string): void;
}

/** Parses one file from its source (`parseFile` over `source.text()`, or a cache in front of it). */
export type SourceParser = (source: FileSource) => Promise<ParsedFile | undefined>;

/** What the index already holds of a file at a version (its text, its content key), so parsing it need not read it again. */
export interface KnownSources {
  /** The text and key known for `path` at `version`, or `undefined`. */
  sourceOf(path: string, version: string): { readonly text?: string; readonly key?: string } | undefined;
  /** Records the key computed from the text of `path` at `version`. */
  keyed(path: string, version: string, key: string): void;
}

/** Options of {@link ProjectFiles}. */
export interface ProjectFilesOptions {
  readonly sandbox: CodeIndexSandbox;
  /** Larger files are not indexed. */
  readonly maxFileBytes: number;
  /** Resolves the parser on each parse-cache miss; it should cache, as it is called per file. */
  readonly loadParser: () => Promise<SourceParser>;
  /** Texts and keys already known, handed to the parser rather than read again. @default none */
  readonly sources?: KnownSources;
}

interface CachedParse {
  readonly version: string;
  /** The parse, cached as a promise so that concurrent queries share one while it runs. */
  readonly file: Promise<ParsedFile | undefined>;
}

/**
 * The index's view of the repo: the listing of source files (listed again when a folder holding
 * listed files changes its mtime, or after `refresh`), each file's `mtimeMs:size` version
 * (re-checked once per query), and parse results cached by version.
 */
export class ProjectFiles {
  readonly #sandbox: CodeIndexSandbox;
  readonly #maxFileBytes: number;
  readonly #loadParser: () => Promise<SourceParser>;
  readonly #sources: KnownSources | undefined;
  #listing: Promise<readonly string[]> | undefined;
  /** The folders of the current listing and their mtimes, to tell when to list again. */
  #directories: Promise<DirectoryVersions | undefined> | undefined;
  #lastListing: readonly string[] | undefined;
  #versions = new Map<string, string>();
  #scriptFiles: readonly string[] = [];
  readonly #parses = new Map<string, CachedParse>();
  #generation = 0;

  constructor(options: ProjectFilesOptions) {
    this.#sandbox = options.sandbox;
    this.#maxFileBytes = options.maxFileBytes;
    this.#loadParser = options.loadParser;
    this.#sources = options.sources;
  }

  /** Bumped whenever a `revalidate` sees a file added, removed or changed: answers cached under one generation stay exact. */
  get generation(): number {
    return this.#generation;
  }

  /** Forgets the listing so the next query lists the repo again (new and deleted files). */
  refresh(): void {
    this.#listing = undefined;
  }

  /**
   * Every visible file, repo-relative and sorted, listed once until `revalidate` sees a folder
   * change or `refresh` is called. A new listing with the same files is the same array, so what
   * is built per listing (the module resolver) is kept.
   */
  list(signal?: AbortSignal): Promise<readonly string[]> {
    if (this.#listing !== undefined) return this.#listing;
    const walkStartedAt = Date.now();
    const listing = this.#sandbox.listFiles(signal === undefined ? {} : { signal }).then((files) => {
      const previous = this.#lastListing;
      const same =
        previous?.length === files.length && files.every((file, index) => previous[index] === file);
      this.#lastListing = same ? previous : files;
      return this.#lastListing;
    });
    this.#listing = listing;
    this.#directories = listing
      .then((files) => directoryVersions(this.#sandbox.root, files, walkStartedAt))
      .catch(() => undefined);
    listing.catch(() => {
      if (this.#listing === listing) this.#listing = undefined;
    });
    return listing;
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
   * Stats every listed file and drops parse results of files that changed; lists the repo again
   * first when a folder of the listing changed (a file added, deleted or renamed).
   */
  async revalidate(signal?: AbortSignal): Promise<void> {
    const listing = this.#listing;
    const directories = this.#directories;
    // The folder check runs beside the file stats; a changed folder means listing and stat'ing again.
    const [listChanged, stated] = await Promise.all([
      directories?.then((versions) =>
        versions === undefined ? false : directoriesChanged(this.#sandbox.root, versions, signal),
      ),
      this.#statListed(signal),
    ]);
    let { files, versions } = stated;
    if (listChanged === true) {
      if (this.#listing === listing) this.#listing = undefined;
      ({ files, versions } = await this.#statListed(signal));
    }
    const unchanged = files.every((file) => versions.get(file) === this.#versions.get(file));
    if (!unchanged || versions.size !== this.#versions.size) {
      this.#generation += 1;
      this.#versions = versions;
      this.#scriptFiles = files.filter((file) => versions.has(file) && isScriptFile(file));
    }
    for (const path of this.#parses.keys()) {
      if (this.#parses.get(path)?.version !== versions.get(path)) this.#parses.delete(path);
    }
  }

  /** The listed files in a supported language, and the `mtimeMs:size` of those that are files within the size limit. */
  async #statListed(
    signal: AbortSignal | undefined,
  ): Promise<{ readonly files: readonly string[]; readonly versions: Map<string, string> }> {
    const files = (await this.list(signal)).filter((file) => languageOf(file) !== undefined);
    const versions = new Map<string, string>();
    for (let start = 0; start < files.length; start += statConcurrency) {
      signal?.throwIfAborted();
      const batch = files.slice(start, start + statConcurrency);
      const stats = await Promise.all(
        batch.map((file) => stat(posix.join(this.#sandbox.root, file)).catch(() => undefined)),
      );
      stats.forEach((stats, offset) => {
        const file = batch[offset];
        if (file !== undefined && stats?.isFile() && stats.size <= this.#maxFileBytes) {
          versions.set(file, `${stats.mtimeMs}:${stats.size}`);
        }
      });
    }
    return { files, versions };
  }

  /** Parses one file through the sandbox (so a bad path gets the sandbox's error), cached by version. */
  async parse(path: string): Promise<ParsedFile | undefined> {
    const info = await this.#sandbox.stat(path);
    return this.#parseVersion(path, `${info.mtimeMs}:${info.size}`);
  }

  /** Every listed file parsed, revalidated first; unreadable files are skipped. */
  async parseAll(signal?: AbortSignal): Promise<ParsedFile[]> {
    await this.revalidate(signal);
    return this.parseSome([...this.#versions.keys()], signal);
  }

  /** True when the parse of `path` at its version as of the last `revalidate` is held (done or under way). */
  hasParse(path: string): boolean {
    const version = this.#versions.get(path);
    return version !== undefined && this.#parses.get(path)?.version === version;
  }

  /** The files among `files` known to the last `revalidate`, parsed in their order; unreadable and unknown files are skipped. */
  async parseSome(files: readonly string[], signal?: AbortSignal): Promise<ParsedFile[]> {
    const parsed: ParsedFile[] = [];
    for (let start = 0; start < files.length; start += statConcurrency) {
      signal?.throwIfAborted();
      const batch = files.slice(start, start + statConcurrency);
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

  /** `path` at `version` as the parser gets it: a text or key already known, else a read (started now when there is no key to try first). */
  #source(path: string, version: string): FileSource {
    const known = this.#sources?.sourceOf(path, version);
    let text: Promise<string> | undefined =
      known?.text === undefined ? undefined : Promise.resolve(known.text);
    const read = (): Promise<string> =>
      (text ??= this.#sandbox.readText(path, { maxBytes: this.#maxFileBytes }).then((read) => read.text));
    if (known?.key === undefined) void read().catch(() => undefined);
    return {
      path,
      ...(known?.key === undefined ? {} : { key: known.key }),
      text: read,
      keyed: (key) => this.#sources?.keyed(path, version, key),
    };
  }
}
