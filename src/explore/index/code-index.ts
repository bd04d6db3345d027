import { relative as relativePath, sep } from 'node:path';
import type ts from 'typescript';
import { Sandbox } from '../sandbox/sandbox.js';
import type { SandboxLimits } from '../sandbox/sandbox-defaults.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { CodeSymbol, ImportRecord, ParsedFile } from './code-symbol.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';
import { CodeIndexError } from './code-index-error.js';
import type { DefinitionLocation, IndexContext } from './index-context.js';
import type { IndexLanguageServiceHost } from './language-service-host.js';
import { loadCodeIndexEngine } from './load-code-index-engine.js';
import { loadCodeIndexQueries } from './load-code-index-queries.js';
import { ProjectFiles } from './project-files.js';
import type { FileParser } from './project-files.js';
import { resolveParseCacheOptions } from './cache/parse-cache-options.js';
import type { ParseCacheOptions } from './cache/parse-cache-options.js';
import type { FindReferencesOptions, ReferencesResult } from './references.js';
import { fileImportGraph, importEdges, resolveImports, summarizeImportGraph } from './import-graph.js';
import type { FileImportGraph, ImportGraphSummary } from './import-graph.js';
import { buildRepoMap } from './repo-map.js';
import type { RepoMap, RepoMapOptions } from './repo-map.js';
import { buildStructure } from './structure.js';
import { isScriptFile, languageOf } from './languages.js';
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
   * The on-disk cache of per-file parses, shared across processes and repositories: `false`
   * turns it off, an object moves or caps it. Entries are keyed by file content, so edits and
   * branch switches never get a stale parse.
   * @default on, in the user cache folder (`defaultCacheDirectory()`), capped at 256 MiB
   */
  readonly cache?: boolean | ParseCacheOptions;
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
    });
  }

  /** Forgets the file listing, so files added or deleted since are seen. Changed files are always re-read. */
  refresh(): void {
    this.#files.refresh();
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
    const [queries, context] = await Promise.all([loadCodeIndexQueries(), this.#context(options.signal)]);
    return queries.findDefinitions(context, name, this.#repoPath(options.path));
  }

  /** Every reference to the declarations of `name`, grouped by file and capped. */
  async references(
    name: string,
    options: FindReferencesOptions & QueryOptions = {},
  ): Promise<ReferencesResult> {
    const path = this.#repoPath(options.path);
    const [queries, context] = await Promise.all([loadCodeIndexQueries(), this.#context(options.signal)]);
    const key = JSON.stringify([name, path, options.includeDeclaration === true, options.maxReferences]);
    const cached = this.#answers.get(key);
    if (cached !== undefined) return cached;
    const readText = async (file: string): Promise<string> => (await this.#sandbox.readText(file)).text;
    const result = await queries.findReferences(
      context,
      name,
      { ...options, ...(path === undefined ? {} : { path }) },
      readText,
    );
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
      listing.filter((path) => languageOf(path) !== undefined),
      configs,
      this.root.slice(this.root.lastIndexOf('/') + 1),
    );
  }

  async #context(signal: AbortSignal | undefined): Promise<IndexContext> {
    // A repo with JS/TS files starts loading the compiler as soon as it is listed, while its files are stat'ed.
    void this.#files
      .list(signal)
      .then((listing) => (listing.some(isScriptFile) ? loadCodeIndexEngine() : undefined))
      .catch(() => undefined);
    const [files, resolver] = await Promise.all([this.#files.parseAll(signal), this.#resolver(signal)]);
    if (this.#answersGeneration !== this.#files.generation) {
      this.#answers.clear();
      this.#answersGeneration = this.#files.generation;
    }
    const snapshot = { files, byPath: new Map(files.map((file) => [file.path, file])), resolver };
    // No JS/TS files, no compiler: a Python or Go repo never loads TypeScript.
    if (this.#files.scriptFiles().length === 0) return snapshot;
    const engine = await loadCodeIndexEngine();
    const host = (this.#host ??= new engine.IndexLanguageServiceHost({
      root: this.root,
      scriptFiles: () => this.#files.scriptFiles(),
      versionOf: (path) => this.#files.versionOf(path),
    }));
    // New configuration (a tsconfig `paths`, a workspace package) changes module resolution:
    // the service starts over on the new resolver, reusing parsed files from its registry.
    if (host.setModuleResolver(resolver.scripts)) {
      this.#service = undefined;
      this.#answers.clear();
    }
    const service = (): ts.LanguageService => (this.#service ??= engine.createIndexLanguageService(host));
    return { ...snapshot, scripts: engine.createScriptNavigation({ ...snapshot, host, service }) };
  }
}
