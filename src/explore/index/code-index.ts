import { relative as relativePath, sep } from 'node:path';
import type { ImportRecord, ParsedFile } from './code-symbol.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';
import type { CodeIndexQueries } from './load-code-index-queries.js';
import { CodeIndexError } from './code-index-error.js';
import type { DefinitionLocation, IndexContext } from './index-context.js';
import type { CodeIndexEngine } from './load-code-index-engine.js';
import { loadCodeIndexQueries } from './load-code-index-queries.js';
import type { ProjectFiles } from './project-files.js';
import { ProgramWarming } from './program-warming.js';
import { codeIndexParts } from './code-index-parts.js';
import { AnswerCache } from './answer-cache.js';
import type { ScriptProgram } from './script-program.js';
import { IndexWarmStep } from './index-warm-step.js';
import { askInQuestionScope } from './question-scope.js';
import type { ScriptContext } from './script-context.js';
import type { SourceTexts } from './source-texts.js';
import type { CodeIndexOptions, FileSymbols, QueryOptions } from './code-index-options.js';
import { parseCacheFor } from './cache/parse-cache.js';
import type { ResolvedParseCacheOptions } from './cache/parse-cache-options.js';
import type { FindReferencesOptions, ReferencesResult } from './references.js';
import { fileImportGraph, importEdges, resolveImports, summarizeImportGraph } from './import-graph.js';
import type { FileImportGraph, ImportGraphSummary } from './import-graph.js';
import { buildRepoMap } from './repo-map.js';
import type { RepoMap, RepoMapOptions } from './repo-map.js';
import { buildStructure } from './structure.js';
import { isScriptFile } from './languages.js';
import type { ListingResolvers } from './modules/listing-resolvers.js';
import type { ModuleResolver } from './modules/module-resolver.js';
import type { FileStructure } from './structure.js';

export type { CodeIndexOptions, FileSymbols, QueryOptions } from './code-index-options.js';

const maxCachedAnswers = 256;

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
  readonly #program: ScriptProgram;
  readonly #warming: ProgramWarming;
  /** Reference answers of the current file generation. */
  readonly #answers = new AnswerCache<ReferencesResult>(maxCachedAnswers);
  readonly #resolvers: ListingResolvers;
  /** Loads the compiler (from the cache's code cache when there is a cache) and the engine. */
  readonly #loadEngine: () => Promise<CodeIndexEngine>;
  readonly #cache: ResolvedParseCacheOptions | undefined;

  constructor(options: CodeIndexOptions) {
    const parts = codeIndexParts(options);
    this.#sandbox = parts.sandbox;
    this.root = parts.sandbox.root;
    this.#texts = parts.texts;
    this.#files = parts.files;
    this.#program = parts.program;
    this.#resolvers = parts.resolvers;
    this.#loadEngine = parts.loadEngine;
    this.#cache = parts.cache;
    this.#scope = parts.scope;
    const warmStep = new IndexWarmStep({
      files: this.#files,
      texts: this.#texts,
      program: this.#program,
      startProgram: () => this.#startProgram(undefined),
    });
    this.#warming = new ProgramWarming({
      step: () => warmStep.step(),
      background: this.#scope === 'question' && options.warm !== false,
    });
  }

  /** Forgets the file listing, so files added or deleted since are seen. Changed files are always re-read. */
  refresh(): void {
    this.#files.refresh();
  }

  /**
   * Builds the TypeScript program over every JS/TS file of the repository now, a slice at a time
   * (yielding to other work between slices), then parses every source file no question has
   * parsed, and resolves when done: what the
   * background warming does after the first question, for a caller that would rather pay it
   * up front. Resolves at once for a repository without JS/TS files and in `whole-repo` scope,
   * whose first question builds the whole program.
   */
  async warm(options: QueryOptions = {}): Promise<void> {
    this.#prefetchEngine(options.signal);
    await this.#revalidate(options.signal);
    if (this.#scope === 'whole-repo' || this.#files.scriptFiles().length === 0) return;
    await this.#startProgram(options.signal);
    await this.#warming.run(options.signal);
  }

  /**
   * Stops watching the repository's folders (see `CodeIndexOptions.watch`) and resolves once the
   * on-disk cache holds what the index learnt: the repository snapshot is saved now rather than
   * after its short delay, and every parse under way is written. A process that ends with
   * `process.exit()` right after its answers awaits it, so the next process finds the cache
   * whole. The index still answers after, stat'ing files to see changes. An index dropped
   * without `close()` stops its watchers when it is garbage-collected.
   */
  async close(): Promise<void> {
    this.#files.close();
    await Promise.all([
      this.#texts.flush(),
      this.#cache === undefined ? undefined : parseCacheFor(this.#cache).settled(),
    ]);
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
  definitions(
    name: string,
    options: { readonly path?: string } & QueryOptions = {},
  ): Promise<DefinitionLocation[]> {
    return this.#question(() => this.#definitions(name, options));
  }

  /** Every reference to the declarations of `name`, grouped by file and capped. */
  references(name: string, options: FindReferencesOptions & QueryOptions = {}): Promise<ReferencesResult> {
    return this.#question(() => this.#references(name, options));
  }

  /**
   * Runs a question (see `ProgramWarming.question`) with the parse cache's writes held until it is
   * answered (`ParseCache.whileAnswering`); then the listing's folders are stamped (`ProjectFiles.track`).
   */
  async #question<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.#warming.question(() => this.#answering(work));
    } finally {
      this.#files.track();
    }
  }

  #answering<T>(work: () => Promise<T>): Promise<T> {
    return this.#cache === undefined ? work() : parseCacheFor(this.#cache).whileAnswering(work);
  }

  async #definitions(
    name: string,
    options: { readonly path?: string } & QueryOptions,
  ): Promise<DefinitionLocation[]> {
    const path = this.#repoPath(options.path);
    this.#prefetchEngine(options.signal);
    if (this.#scope === 'whole-repo') {
      const [queries, context] = await Promise.all([loadCodeIndexQueries(), this.#context(options.signal)]);
      return queries.findDefinitions(context, name, path);
    }
    await this.#revalidate(options.signal, [localName(name)]);
    return this.#ask([localName(name)], path, options.signal, (queries, context) =>
      queries.findDefinitions(context, name, path),
    );
  }

  async #references(name: string, options: FindReferencesOptions & QueryOptions): Promise<ReferencesResult> {
    const path = this.#repoPath(options.path);
    const whole = this.#scope === 'whole-repo';
    this.#prefetchEngine(options.signal);
    const [queries, context] = whole
      ? await Promise.all([loadCodeIndexQueries(), this.#context(options.signal)])
      : [undefined, await this.#revalidate(options.signal, [localName(name)])];
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
    const { files, resolver } = await this.#answering(() => this.#parsedAll(options.signal));
    this.#files.track();
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
  repoMap(options: RepoMapOptions & QueryOptions = {}): Promise<RepoMap> {
    return this.#question(async () => {
      const focusFiles = options.focusFiles?.map((file) => this.#repoPath(file) ?? '.');
      const { files, resolver } = await this.#parsedAll(options.signal);
      return buildRepoMap(files, resolver, {
        ...options,
        ...(focusFiles === undefined ? {} : { focusFiles }),
      });
    });
  }

  async #parse(path: string): Promise<ParsedFile> {
    const normalized = this.#repoPath(path) ?? '.';
    const file = await this.#files.parse(normalized);
    this.#files.track();
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

  /** The module resolver of the current listing. */
  async #resolver(signal: AbortSignal | undefined): Promise<ModuleResolver> {
    return this.#resolvers.resolverFor(await this.#files.list(signal));
  }

  /** Brings the file versions and texts up to date; a changed file drops the cached answers. */
  async #revalidate(signal: AbortSignal | undefined, words: readonly string[] = []): Promise<undefined> {
    // The module resolver reads every package.json and tsconfig: those reads run beside the stats.
    void this.#resolver(signal).catch(() => undefined);
    this.#texts.prefetch();
    await this.#files.revalidate(signal);
    await this.#texts.update(this.#files.versions(), signal, words);
    this.#answers.ofGeneration(this.#files.generation);
    return undefined;
  }

  /** Runs a question on the files that mention `words`: see `askInQuestionScope`. */
  async #ask<T>(
    words: readonly string[],
    path: string | undefined,
    signal: AbortSignal | undefined,
    run: (queries: CodeIndexQueries, context: IndexContext) => T | Promise<T>,
  ): Promise<T> {
    const [queries, resolver] = await Promise.all([loadCodeIndexQueries(), this.#resolver(signal)]);
    return askInQuestionScope(
      {
        files: this.#files,
        texts: this.#texts,
        resolver,
        scriptContext: (snapshot, scripts, program) => this.#scriptContext(snapshot, scripts, program),
      },
      { words, path, signal },
      (context) => run(queries, context),
    );
  }

  /** Starts loading the compiler for a question that reads the program, beside the listing and the stats. */
  #prefetchEngine(signal: AbortSignal | undefined): void {
    // A repo with JS/TS files starts loading the compiler as soon as its stored snapshot or its
    // listing shows one, while it is walked and its files stat'ed.
    const load = (files: readonly string[]): unknown =>
      files.some(isScriptFile) ? this.#loadEngine() : undefined;
    void this.#texts
      .storedPaths()
      .then(load)
      .catch(() => undefined);
    void this.#files
      .list(signal)
      .then(load)
      .catch(() => undefined);
  }

  /** Makes the language service (loading the compiler), with no question's files yet: what warming grows. */
  async #startProgram(signal: AbortSignal | undefined): Promise<void> {
    const resolver = await this.#resolver(signal);
    await this.#scriptContext({ files: [], byPath: new Map(), resolver }, [], {
      scriptFilesMentioning: () => [],
      missing: () => undefined,
    });
  }

  /** The language service's navigation over a snapshot, the program made to include `scripts`. */
  async #scriptContext(
    snapshot: Omit<IndexContext, 'scripts'>,
    scripts: readonly string[],
    program: Pick<ScriptContext, 'scriptFilesMentioning' | 'missing'>,
  ): Promise<IndexContext> {
    const { context, resolverChanged } = await this.#program.context(snapshot, scripts, program);
    if (resolverChanged) this.#answers.clear();
    return context;
  }

  /**
   * Every source file parsed, with the module resolver: what the import graph and the repo map
   * read. No program: the compiler is loaded only if a file must be parsed, so a process whose
   * parses are all in the cache never loads it. The texts are brought up to date too: the parser
   * takes them (or their cache keys) from there, and the next snapshot records them.
   */
  async #parsedAll(signal: AbortSignal | undefined): Promise<Omit<IndexContext, 'scripts'>> {
    await this.#revalidate(signal);
    await this.#texts.readAll(signal);
    const [files, resolver] = await Promise.all([
      this.#files.parseSome([...this.#files.versions().keys()], signal),
      this.#resolver(signal),
    ]);
    return { files, byPath: new Map(files.map((file) => [file.path, file])), resolver };
  }

  /** `#parsedAll` with the language service's navigation over every JS/TS file: `whole-repo` scope's questions. */
  async #context(signal: AbortSignal | undefined): Promise<IndexContext> {
    const snapshot = await this.#parsedAll(signal);
    // No JS/TS files, no compiler: a Python or Go repo never loads TypeScript.
    if (this.#files.scriptFiles().length === 0) return snapshot;
    const scripts = snapshot.files.filter((file) => file.engine === 'typescript').map((file) => file.path);
    return this.#scriptContext(snapshot, scripts, {
      scriptFilesMentioning: () => scripts,
      missing: () => undefined,
    });
  }
}

/** The member name of `Container.member`, or the name itself. */
function localName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}
