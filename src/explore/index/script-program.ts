import type ts from 'typescript';
import type { CodeIndexEngine } from './load-code-index-engine.js';
import { loadCodeIndexEngine } from './load-code-index-engine.js';
import type { IndexContext } from './index-context.js';
import type { IndexLanguageServiceHost } from './language-service-host.js';
import type { ProjectFiles } from './project-files.js';
import type { ScriptContext } from './script-context.js';
import type { SourceTexts } from './source-texts.js';

/** Options of {@link ScriptProgram}. */
export interface ScriptProgramOptions {
  /** Real path of the repository root. */
  readonly root: string;
  readonly files: ProjectFiles;
  readonly texts: SourceTexts;
  /** `question`: the program holds the files questions reached (and grows by warming); `whole-repo`: every JS/TS file. */
  readonly scope: 'question' | 'whole-repo';
  /** Loads the compiler and the index's engine. @default loadCodeIndexEngine */
  readonly loadEngine?: () => Promise<CodeIndexEngine>;
}

/** What one warming step did. */
export interface WarmStep {
  /** JS/TS files parsed ahead by this step. */
  readonly parsed: number;
  /** JS/TS files added to the program by this step. */
  readonly added: number;
  /** JS/TS files the program still lacks after it. */
  readonly remaining: number;
}

/**
 * The long-lived TypeScript language service of a code index and the files its program holds.
 * In `question` scope the program starts from the files questions reach and every file that
 * may declare globals, and grows: by questions (a file a question asks for that the program
 * lacks) and by warming, a slice of the repository's JS/TS files at a time, until it holds them
 * all, as the `whole-repo` program does from the start. A file parsed and bound once stays in the
 * host's document registry, so a program rebuilt on more roots re-reads and re-binds nothing.
 */
export class ScriptProgram {
  readonly #root: string;
  readonly #files: ProjectFiles;
  readonly #texts: SourceTexts;
  readonly #scope: 'question' | 'whole-repo';
  readonly #loadEngine: () => Promise<CodeIndexEngine>;
  #engine: CodeIndexEngine | undefined;
  #host: IndexLanguageServiceHost | undefined;
  #service: ts.LanguageService | undefined;
  /** The program's root files for `question` scope. */
  #roots: readonly string[] = [];
  /** Bumped whenever `#roots` changes: part of the host's project version. */
  #rootsVersion = 0;
  #rootsFrom: { readonly globals: readonly string[]; readonly asked: ReadonlySet<string> } = {
    globals: [],
    asked: new Set(),
  };

  constructor(options: ScriptProgramOptions) {
    this.#root = options.root;
    this.#files = options.files;
    this.#texts = options.texts;
    this.#scope = options.scope;
    this.#loadEngine = options.loadEngine ?? loadCodeIndexEngine;
  }

  /** True once `context` has made the language service's host: warming has a program to grow. */
  get started(): boolean {
    return this.#host !== undefined;
  }

  /**
   * The language service's navigation over a snapshot, the program made to include `scripts`.
   * `resolverChanged` is true when new configuration (a tsconfig `paths`, a workspace package)
   * changed module resolution: the service started over, and answers cached before may differ.
   */
  async context(
    snapshot: Omit<IndexContext, 'scripts'>,
    scripts: readonly string[],
    program: Pick<ScriptContext, 'scriptFilesMentioning' | 'missing'>,
  ): Promise<{ readonly context: IndexContext; readonly resolverChanged: boolean }> {
    const engine = (this.#engine ??= await this.#loadEngine());
    const host = this.#hostOf(engine);
    // The service starts over on the new resolver, reusing parsed files from its registry.
    const resolverChanged = host.setModuleResolver(snapshot.resolver.scripts);
    if (resolverChanged) this.#service = undefined;
    if (this.#scope === 'question') this.#growRoots(host, scripts);
    const service = (): ts.LanguageService => this.#serviceOf(engine, host);
    return {
      context: {
        ...snapshot,
        scripts: engine.createScriptNavigation({ ...snapshot, host, service, ...program }),
      },
      resolverChanged,
    };
  }

  /**
   * One slice of warming: parses JS/TS files the program lacks into the registry until
   * `maxMilliseconds` have passed (in path order); once all are parsed, adds up to `maxFiles` of
   * them to the program and builds it and its type checker, which then only binds them. What a
   * later question would otherwise pay at once, spread over slices a question waits little
   * behind. Does nothing before `context` made the host, or in `whole-repo` scope, whose program
   * holds every file.
   */
  warmStep(options: { readonly maxFiles: number; readonly maxMilliseconds: number }): WarmStep {
    const engine = this.#engine;
    const host = this.#host;
    if (engine === undefined || host === undefined || this.#scope === 'whole-repo') {
      return { parsed: 0, added: 0, remaining: 0 };
    }
    const program = this.#serviceOf(engine, host).getProgram();
    if (program === undefined) return { parsed: 0, added: 0, remaining: 0 };
    const lacking = this.#files
      .scriptFiles()
      .filter((file) => program.getSourceFile(host.absolute(file)) === undefined);
    const started = performance.now();
    let parsed = 0;
    for (const file of lacking) {
      if (!host.prepare(file)) continue;
      parsed += 1;
      if (performance.now() - started >= options.maxMilliseconds) {
        return { parsed, added: 0, remaining: lacking.length };
      }
    }
    const slice = lacking.slice(0, options.maxFiles);
    if (slice.length === 0) return { parsed, added: 0, remaining: 0 };
    this.#growRoots(host, slice);
    const grown = this.#serviceOf(engine, host).getProgram();
    grown?.getTypeChecker();
    for (const sourceFile of grown?.getSourceFiles() ?? []) host.registry.settle(sourceFile);
    const remaining =
      grown === undefined
        ? 0
        : lacking.filter((file) => grown.getSourceFile(host.absolute(file)) === undefined).length;
    return { parsed, added: lacking.length - remaining, remaining };
  }

  #serviceOf(engine: CodeIndexEngine, host: IndexLanguageServiceHost): ts.LanguageService {
    this.#service ??= engine.createIndexLanguageService(host);
    return this.#service;
  }

  #hostOf(engine: CodeIndexEngine): IndexLanguageServiceHost {
    this.#host ??= new engine.IndexLanguageServiceHost({
      root: this.#root,
      scriptFiles: () => this.#files.scriptFiles(),
      versionOf: (path) => this.#files.versionOf(path),
      projectVersion: () => `${this.#files.generation}:${this.#rootsVersion}`,
      ...(this.#scope === 'question' ? { rootFiles: () => this.#roots } : {}),
    });
    return this.#host;
  }

  /**
   * The roots for `question` scope: the files that may declare globals, and the files questions
   * (and warming) asked for that the program did not already hold through imports; a program
   * that holds every file a question asks for is kept, with what its type checker has learned.
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
    this.#rootsVersion += 1;
  }
}
