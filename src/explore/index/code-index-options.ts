import type { SandboxLimits } from '../sandbox/sandbox-defaults.js';
import type { ParseCacheOptions } from './cache/parse-cache-options.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';
import type { CodeSymbol, ParsedFile } from './code-symbol.js';

/** Options of {@link CodeIndex}. */
export interface CodeIndexOptions {
  /** The repository root. Required unless `sandbox` is given (its root is used). */
  readonly root?: string;
  /** The sandbox to read through. @default a new `Sandbox({ root, include, exclude, limits })` */
  readonly sandbox?: CodeIndexSandbox;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** Sandbox limits; files over `maxFileBytes` are not indexed. */
  readonly limits?: Partial<SandboxLimits>;
  /**
   * How definitions and references are found. `question` (the default) reads every source file
   * (over the cache's repository snapshot, only those changed since) but parses only those whose
   * text mentions the name asked, and the language service's program
   * holds those files, what they import and every file that may declare globals. `whole-repo`
   * parses every file and gives the program every JS/TS file: the simple reference the default
   * is tested against; the answers are the same.
   * @default 'question'
   */
  readonly scope?: 'question' | 'whole-repo';
  /**
   * The on-disk cache, shared across processes and repositories: per-file parses keyed by file
   * content, and one snapshot per repository of each file's mtime, size, content key and words,
   * so a later process trusts a file whose mtime and size match without reading it. `false`
   * turns it off, an object moves or caps it. Edits and branch switches never get a stale parse.
   * @default on, in the user cache folder (`defaultCacheDirectory()`), capped at 256 MiB
   */
  readonly cache?: boolean | ParseCacheOptions;
  /**
   * In `question` scope, after a question is answered, grow the TypeScript program to every JS/TS
   * file in the background, a slice at a time while no question is under way, so that a later
   * question about another name finds its files parsed and bound. `false` keeps the program to
   * what questions reached; `warm()` does the same work on demand.
   * @default true
   */
  readonly warm?: boolean;
  /**
   * How a query learns that files changed since the last one. `true` watches the listed folders
   * with `fs.watch` (each on its own, never keeping the process alive) and stats only the files
   * their events name; where watching fails (no inotify watches left, a watcher error, more than
   * 20,000 folders) the index falls back to stat'ing. `false` stats every listed file and
   * folder on each query. Both see the same changes; `close()` stops the watchers.
   * @default true
   */
  readonly watch?: boolean;
  /**
   * How the text prefilter may use ripgrep when it has hundreds of files to read (a first question
   * without a cache, a branch switch): `true` runs `rg` from `PATH` when it is there, `false` never
   * runs it, a path is the `rg` executable. Ripgrep names the files that may declare globals and
   * those that may mention the question's words; only those are read before the answer, the rest
   * in the background. Answers are the same with or without it: the index decides on the texts it
   * reads. Used only with the index's own `Sandbox` (ripgrep reads the files on disk).
   * @default true
   */
  readonly ripgrep?: boolean | string;
}

/** A file's symbols as the index sees them. */
export interface FileSymbols {
  readonly path: string;
  readonly language: string;
  readonly engine: ParsedFile['engine'];
  /** Why the file was parsed with less than its engine's best (a grammar missing, a query pattern dropped). */
  readonly notice?: string;
  readonly symbols: readonly CodeSymbol[];
}

/** Options shared by the queries. */
export interface QueryOptions {
  readonly signal?: AbortSignal;
}
