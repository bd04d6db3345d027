import { relative as relativePath, sep } from 'node:path';
import type ts from 'typescript';
import { Sandbox } from '../sandbox/sandbox.js';
import type { SandboxLimits } from '../sandbox/sandbox-defaults.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { CodeSymbol, ImportRecord, ParsedFile } from './code-symbol.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';
import type { CodeIndexEngine } from './load-code-index-engine.js';
import type { CodeIndexQueries } from './load-code-index-queries.js';
import { CodeIndexError } from './code-index-error.js';
import type { DefinitionLocation, IndexContext } from './index-context.js';
import type { IndexLanguageServiceHost } from './language-service-host.js';
import { loadCodeIndexEngine } from './load-code-index-engine.js';
import { loadCodeIndexQueries } from './load-code-index-queries.js';
import { ProjectFiles } from './project-files.js';
import { RecordingFiles } from './recording-files.js';
import type { ScriptContext } from './script-context.js';
import { SourceTexts } from './source-texts.js';
import type { FileParser } from './project-files.js';
import { resolveParseCacheOptions } from './cache/parse-cache-options.js';
import type { ParseCacheOptions } from './cache/parse-cache-options.js';
import type { FindReferencesOptions, ReferencesResult } from './references.js';
import { fileImportGraph, importEdges, resolveImports, summarizeImportGraph } from './import-graph.js';
import type { FileImportGraph, ImportGraphSummary } from './import-graph.js';
import { buildRepoMap } from './repo-map.js';
import type { RepoMap, RepoMapOptions } from './repo-map.js';
import { buildStructure } from './structure.js';
import { isDataModule, isScriptFile, languageOf } from './languages.js';
import { createModuleResolver, isModuleConfigFile } from './modules/module-resolver.js';
import type { ModuleResolver } from './modules/module-resolver.js';
import type { FileStructure } from './structure.js';

const maxCachedAnswers = 256;
/** Configuration files (package.json, tsconfig, go.mod, Cargo.toml) read for module resolution, at most. */
const maxConfigFiles = 2000;
const maxConfigBytes = 512 * 1024;

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
   * but parses only those whose text mentions the name asked, and the language service's program
   * holds those files, what they import and every file that may declare globals. `whole-repo`
   * parses every file and gives the program every JS/TS file: the simple reference the default
   * is tested against; the answers are the same.
   * @default 'question'
   */
  readonly scope?: 'question' | 'whole-repo';
  /**
   * The on-disk cache of per-file parses, shared across processes and repositories: `false`
   * turns it off, an object moves or caps it. Entries are keyed by file content, so edits and
   * branch switches never get a stale parse.
   * @default on, in the user cache folder (`defaultCacheDirectory()`), capped at 256 MiB
   */
  readonly cache?: boolean | ParseCacheOptions;
  /**
   * How a query learns that files changed since the last one. `true` watches the listed folders
   * with `fs.watch` (each on its own, never keeping the process alive) and stats only the files
   * their events name; where watching fails (no inotify watches left, a watcher error, more than
   * 20,000 folders) the index falls back to stat'ing. `false` stats every listed file and
   * folder on each query. Both see the same changes; `close()` stops the watchers.
   * @default true
   */
  readonly watch?: boolean;
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

/**
 * A lazily built code index of a repository: per-file symbols, structure and imports
 * (cached by mtime and size), and a long-lived TypeScript language service over the
 * repo's JS/TS files for exact definitions and references. Python, Go, Rust, Java, C and C++ are
 * parsed by tree-sitter grammars (optional packages, loaded per language on first use); other
 * languages get pattern-matched symbols.
 * The TypeScript compiler is loaded by the first query that meets a JS/TS file, not by
 * constructing the index; a repo without JS/TS files never loads it.
 *
 * @example
 * const index = new CodeIndex({ root: '.' });
 * const [definition] = await index.definitions('dispatchRequest');
 */
export class CodeIndex {
  /** Real path of the repository root. */
  readonly root: string;
  readonly #sandbox: CodeIndexSandbox;
  readonly #files: ProjectFiles;
  readonly #texts: SourceTexts;
  readonly #scope: 'question' | 'whole-repo';
  /** The program's root files for `question` scope: every file a question reached, and every file that may declare globals. */
  #roots: readonly string[] = [];
  #rootsFrom: { readonly globals: readonly string[]; readonly asked: ReadonlySet<string> } = {
    globals: [],
    asked: new Set(),
  };
  #host: IndexLanguageServiceHost | undefined;
  #service: ts.LanguageService | undefined;
  /** Reference answers of the current file generation: same file versions, same answer. */
  readonly #answers = new Map<string, ReferencesResult>();
  #answersGeneration = -1;
  #modules: { readonly listing: readonly string[]; readonly resolver: Promise<ModuleResolver> } | undefined;

  constructor(options: CodeIndexOptions) {
    if (options.sandbox === undefined && (typeof options.root !== 'string' || options.root === '')) {
      throw new InvalidArgumentError({
        argument: 'root',
        value: options.root,
        message: 'pass the repository directory as `root`, or a `sandbox`.',
      });
    }
    this.#sandbox =
      options.sandbox ??
      new Sandbox({
        root: options.root ?? '.',
        ...(options.include === undefined ? {} : { include: options.include }),
        ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      });
    this.root = this.#sandbox.root;
    const maxFileBytes =
      options.limits?.maxFileBytes ?? this.#sandbox.limits?.maxFileBytes ?? 2 * 1024 * 1024;
    const cache = resolveParseCacheOptions(options.cache);
    let parser: Promise<FileParser> | undefined;
    this.#files = new ProjectFiles({
      sandbox: this.#sandbox,
      maxFileBytes,
      loadParser: () => {
        parser ??= loadCodeIndexQueries().then(({ parseFile, cachedParser }) =>
          cache === undefined ? parseFile : cachedParser(parseFile, cache),
        );
        parser.catch(() => (parser = undefined));
        return parser;
      },
      ...(options.watch === undefined ? {} : { watch: options.watch }),
    });
    this.#texts = new SourceTexts({ sandbox: this.#sandbox, maxFileBytes });
    this.#scope = options.scope ?? 'question';
  }

  /** Forgets the file listing, so files added or deleted since are seen. Changed files are always re-read. */
  refresh(): void {
    this.#files.refresh();
  }

  /**
   * Stops watching the repository's folders (see `CodeIndexOptions.watch`); the index still
   * answers, stat'ing files to see changes. An index dropped without `close()` stops its
   * watchers when it is garbage-collected.
   */
  close(): void {
    this.#files.close();
  }

  /** Functions, classes, methods, variables and types declared in a file. @throws {CodeIndexError} for unsupported files */
  async symbols(path: string): Promise<FileSymbols> {
    const file = await this.#parse(path);
    return {
      path: file.path,
      language: file.language,
      engine: file.engine,
      ...(file.notice === undefined ? {} : { notice: file.notice }),
      symbols: file.symbols,
    };
  }

  /** A file's outline (class → members, with signatures and line ranges) plus its imports and exports. */
  async structure(path: string, options: QueryOptions = {}): Promise<FileStructure> {
    const file = await this.#parse(path);
    return buildStructure(file, await this.#resolvedImports(file, options.signal));
  }

  /** A file's imports, `require`s and re-exports, relative ones resolved to repo files. */
  async imports(
    path: string,
    options: QueryOptions = {},
  ): Promise<{ readonly path: string; readonly imports: readonly ImportRecord[] }> {
    const file = await this.#parse(path);
    return { path: file.path, imports: await this.#resolvedImports(file, options.signal) };
  }

  /** Where `name` (or `Class.member`) is declared, exported declarations first; `path` narrows to a file or directory. */
  async definitions(
    name: string,
    options: { readonly path?: string } & QueryOptions = {},
  ): Promise<DefinitionLocation[]> {
    const path = this.#repoPath(options.path);
    if (this.#scope === 'whole-repo') {
      const [queries, context] = await Promise.all([loadCodeIndexQueries(), this.#context(options.signal)]);
      return queries.findDefinitions(context, name, path);
    }
    await this.#revalidate(options.signal);
    return this.#ask([localName(name)], path, options.signal, (queries, context) =>
      queries.findDefinitions(context, name, path),
    );
  }

  /** Every reference to the declarations of `name`, grouped by file and capped. */
  async references(
    name: string,
    options: FindReferencesOptions & QueryOptions = {},
  ): Promise<ReferencesResult> {
    const path = this.#repoPath(options.path);
    const whole = this.#scope === 'whole-repo';
    const [queries, context] = whole
      ? await Promise.all([loadCodeIndexQueries(), this.#context(options.signal)])
      : [undefined, await this.#revalidate(options.signal)];
    const key = JSON.stringify([name, path, options.includeDeclaration === true, options.maxReferences]);
    const cached = this.#answers.get(key);
    if (cached !== undefined) return cached;
    const readText = async (file: string): Promise<string> => (await this.#sandbox.readText(file)).text;
    const find = (queries: CodeIndexQueries, context: IndexContext): Promise<ReferencesResult> =>
      queries.findReferences(
        context,
        name,
        { ...options, ...(path === undefined ? {} : { path }) },
        readText,
      );
    let result: ReferencesResult;
    if (queries !== undefined && context !== undefined) result = await find(queries, context);
    else {
      // The declarations' own names are searched too (an alias leads to a differently named one).
      const local = localName(name);
      const definitions = await this.#ask([local], path, options.signal, (queries, context) =>
        queries.findDefinitions(context, name, path),
      );
      const names = [...new Set([local, ...definitions.map((definition) => definition.name)])];
      result = await this.#ask(names, path, options.signal, find);
    }
    if (this.#answers.size >= maxCachedAnswers) this.#answers.clear();
    this.#answers.set(key, result);
    return result;
  }

  /** Without `path`: the repo's import graph summary. With `path`: that file's imports and importers. */
  importGraph(options?: QueryOptions & { readonly path?: undefined }): Promise<ImportGraphSummary>;
  importGraph(options: QueryOptions & { readonly path: string }): Promise<FileImportGraph>;
  async importGraph(
    options: QueryOptions & { readonly path?: string | undefined } = {},
  ): Promise<ImportGraphSummary | FileImportGraph> {
    const path = this.#repoPath(options.path);
    const { files, resolver } = await this.#context(options.signal);
    const edges = importEdges(files, resolver);
    if (path === undefined) return summarizeImportGraph(files, edges);
    const graph = fileImportGraph(files, path, edges, resolver);
    if (graph === undefined) await this.#parse(path); // throws the sandbox's or an unsupported-file error
    return graph ?? { path, imports: [], importedBy: [] };
  }

  /**
   * A ranked overview of the repo (PageRank over definitions and references) within a token budget.
   *
   * @throws {SandboxError} when a focus file is absolute, leads outside the root or is denied.
   */
  async repoMap(options: RepoMapOptions & QueryOptions = {}): Promise<RepoMap> {
    const focusFiles = options.focusFiles?.map((file) => this.#repoPath(file) ?? '.');
    const { files, resolver } = await this.#context(options.signal);
    return buildRepoMap(files, resolver, { ...options, ...(focusFiles === undefined ? {} : { focusFiles }) });
  }

  async #parse(path: string): Promise<ParsedFile> {
    const normalized = this.#repoPath(path) ?? '.';
    const file = await this.#files.parse(normalized);
    if (file === undefined) {
      throw new CodeIndexError({
        subject: path,
        message: `"${path}" is not a source file the code index understands (JS/TS; Python, Go, Rust, Java, C, C++; Kotlin, C#, Ruby and others by pattern). Use read_file to read it.`,
      });
    }
    return file;
  }

  /**
   * A caller's path checked by the sandbox (absolute paths, `..` escapes and secrets throw its
   * error) and made repo-relative with `..` resolved; undefined for the root or no path.
   */
  #repoPath(path: string | undefined): string | undefined {
    if (path === undefined) return undefined;
    const absolute = this.#sandbox.resolve(path);
    const relative =
      this.#sandbox.relative?.(absolute) ?? relativePath(this.root, absolute).split(sep).join('/');
    return relative === '' || relative === '.' ? undefined : relative;
  }

  async #resolvedImports(file: ParsedFile, signal: AbortSignal | undefined): Promise<ImportRecord[]> {
    return resolveImports(file, await this.#resolver(signal));
  }

  /** The module resolver of the current listing: built once per listing from its configuration files. */
  async #resolver(signal: AbortSignal | undefined): Promise<ModuleResolver> {
    const listing = await this.#files.list(signal);
    if (this.#modules?.listing !== listing) {
      const resolver = this.#buildResolver(listing);
      resolver.catch(() => (this.#modules = undefined));
      this.#modules = { listing, resolver };
    }
    return this.#modules.resolver;
  }

  async #buildResolver(listing: readonly string[]): Promise<ModuleResolver> {
    const configs = new Map<string, string>();
    const configPaths = listing.filter(isModuleConfigFile).slice(0, maxConfigFiles);
    await Promise.all(
      configPaths.map(async (path) => {
        try {
          configs.set(path, (await this.#sandbox.readText(path, { maxBytes: maxConfigBytes })).text);
        } catch {
          // An unreadable or oversized config resolves nothing; the rest still does.
        }
      }),
    );
    return createModuleResolver(
      listing.filter((path) => languageOf(path) !== undefined || isDataModule(path)),
      configs,
      this.root.slice(this.root.lastIndexOf('/') + 1),
    );
  }

  /** Brings the file versions and texts up to date; a changed file drops the cached answers. */
  async #revalidate(signal: AbortSignal | undefined): Promise<undefined> {
    this.#prefetchEngine(signal);
    await this.#files.revalidate(signal);
    await this.#texts.update(this.#files.versions(), signal);
    if (this.#answersGeneration !== this.#files.generation) {
      this.#answers.clear();
      this.#answersGeneration = this.#files.generation;
    }
    return undefined;
  }

  /**
   * Runs a question on the files whose text mentions one of `words` (and the files of `path`):
   * only those are parsed and added to the program. A file the question reaches beyond them (a
   * declaration an import leads to, a renamed re-export's users) is parsed and the question
   * asked again, until it reaches nothing new, so the answer is the whole repository's.
   */
  async #ask<T>(
    words: readonly string[],
    path: string | undefined,
    signal: AbortSignal | undefined,
    run: (queries: CodeIndexQueries, context: IndexContext) => T | Promise<T>,
  ): Promise<T> {
    const [queries, resolver] = await Promise.all([loadCodeIndexQueries(), this.#resolver(signal)]);
    const known = this.#files.versions();
    const extra = new Set<string>(path !== undefined && known.has(path) ? [path] : []);
    for (;;) {
      // `default` names what `module.exports =` and `export =` declare, words a text need not hold.
      const mentioned = new Set(
        words.includes('default') ? known.keys() : this.#texts.containing(known.keys(), words),
      );
      const wanted = [...known.keys()].filter((file) => mentioned.has(file) || extra.has(file));
      const files = await this.#files.parseSome(wanted, signal);
      const missed = new Set<string>();
      const miss = (file: string): void => {
        if (known.has(file) && !extra.has(file) && !mentioned.has(file)) missed.add(file);
      };
      const snapshot = { files, byPath: new RecordingFiles(files, miss), resolver };
      const scripts = wanted.filter(isScriptFile);
      const context =
        this.#files.scriptFiles().length === 0
          ? snapshot
          : await this.#scriptContext(snapshot, scripts, {
              scriptFilesMentioning: (name) => this.#texts.containing(this.#files.scriptFiles(), [name]),
              missing: miss,
            });
      const answer = await run(queries, context);
      if (missed.size === 0) return answer;
      for (const file of missed) extra.add(file);
    }
  }

  #prefetchEngine(signal: AbortSignal | undefined): void {
    // A repo with JS/TS files starts loading the compiler as soon as it is listed, while its files are stat'ed.
    void this.#files
      .list(signal)
      .then((listing) => (listing.some(isScriptFile) ? loadCodeIndexEngine() : undefined))
      .catch(() => undefined);
  }

  /**
   * The program's roots for `question` scope: the files that may declare globals, and the files
   * questions asked for that the program did not already hold through imports; a program that
   * holds every file a question asks for is kept, with what its type checker has learned.
   */
  #growRoots(host: IndexLanguageServiceHost, asked: readonly string[]): void {
    const globals = this.#texts.globalScriptFiles();
    const known = this.#files.versions();
    const previous = this.#rootsFrom;
    const program = this.#service?.getProgram();
    const needed = asked.filter(
      (file) => !previous.asked.has(file) && program?.getSourceFile(host.absolute(file)) === undefined,
    );
    if (previous.globals === globals && needed.length === 0) return;
    const all = new Set([...previous.asked].filter((file) => known.has(file)));
    for (const file of needed) all.add(file);
    this.#rootsFrom = { globals, asked: all };
    this.#roots = [...new Set([...globals, ...all])].sort();
  }

  /** The language service's navigation over a snapshot, the program made to include `scripts`. */
  async #scriptContext(
    snapshot: Omit<IndexContext, 'scripts'>,
    scripts: readonly string[],
    program: Pick<ScriptContext, 'scriptFilesMentioning' | 'missing'>,
  ): Promise<IndexContext> {
    const engine: CodeIndexEngine = await loadCodeIndexEngine();
    const host = (this.#host ??= new engine.IndexLanguageServiceHost({
      root: this.root,
      scriptFiles: () => this.#files.scriptFiles(),
      versionOf: (path) => this.#files.versionOf(path),
      ...(this.#scope === 'question' ? { rootFiles: () => this.#roots } : {}),
    }));
    // New configuration (a tsconfig `paths`, a workspace package) changes module resolution:
    // the service starts over on the new resolver, reusing parsed files from its registry.
    if (host.setModuleResolver(snapshot.resolver.scripts)) {
      this.#service = undefined;
      this.#answers.clear();
    }
    if (this.#scope === 'question') this.#growRoots(host, scripts);
    const service = (): ts.LanguageService => (this.#service ??= engine.createIndexLanguageService(host));
    return {
      ...snapshot,
      scripts: engine.createScriptNavigation({ ...snapshot, host, service, ...program }),
    };
  }

  async #context(signal: AbortSignal | undefined): Promise<IndexContext> {
    this.#prefetchEngine(signal);
    const [files, resolver] = await Promise.all([this.#files.parseAll(signal), this.#resolver(signal)]);
    if (this.#answersGeneration !== this.#files.generation) {
      this.#answers.clear();
      this.#answersGeneration = this.#files.generation;
    }
    const snapshot = { files, byPath: new Map(files.map((file) => [file.path, file])), resolver };
    // No JS/TS files, no compiler: a Python or Go repo never loads TypeScript.
    if (this.#files.scriptFiles().length === 0) return snapshot;
    const scripts = files.filter((file) => file.engine === 'typescript').map((file) => file.path);
    // The import graph and the repo map read no program: they do not grow a question's roots.
    return this.#scriptContext(snapshot, this.#scope === 'whole-repo' ? scripts : [], {
      scriptFilesMentioning: () => scripts,
      missing: () => undefined,
    });
  }
}

/** The member name of `Container.member`, or the name itself. */
function localName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}
