import { posix } from 'node:path';
import ts from 'typescript';
import { readRegularFileSync } from '../sandbox/read-regular-file.js';
import { redactPrivateKeys } from '../sandbox/private-key-blocks.js';
import type { ScriptModules } from './modules/script-modules.js';
import { PreparingDocumentRegistry } from './preparing-document-registry.js';
import { sizeOfVersion } from './file-version.js';

/**
 * Compiler options of the index's language service: JS and TS side by side, no default
 * library (so nothing outside the repo is read), relative imports resolved the way bundlers
 * and TypeScript's `.js` → `.ts` mapping do.
 */
export const indexCompilerOptions: ts.CompilerOptions = {
  allowJs: true,
  checkJs: false,
  noLib: true,
  noEmit: true,
  types: [],
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.Preserve,
  allowImportingTsExtensions: true,
  resolveJsonModule: false,
  skipLibCheck: true,
};

/** What the host reads: the root, the script files and each file's version. */
export interface IndexHostSource {
  /** Absolute, `/`-separated real path of the repository root. */
  readonly root: string;
  /** Repo-relative paths of the JS/TS files the host may read. */
  scriptFiles(): readonly string[];
  /**
   * Repo-relative paths of the files the program starts from; what they import joins the program.
   * @default every file of `scriptFiles`
   */
  rootFiles?(): readonly string[];
  /** `mtimeMs:size` of a repo-relative file, or `undefined` when it is not in the program. */
  versionOf(relativePath: string): string | undefined;
  /**
   * A string that changes whenever a file version or the root files change: while it stays the
   * same, the language service takes its program as up to date without asking each file's version.
   * @default none (the service asks every file's version on each use)
   */
  projectVersion?(): string;
}

/**
 * A `ts.LanguageServiceHost` over the repo's JS/TS files. It only ever sees files the index
 * listed (so module resolution cannot leave the sandbox), and script versions come from
 * mtime and size so the service re-parses exactly the files that changed.
 */
export class IndexLanguageServiceHost implements ts.LanguageServiceHost {
  readonly #source: IndexHostSource;
  #directories: Set<string> | undefined;
  #directoriesFor: readonly string[] | undefined;
  #fileNames: string[] = [];
  #fileNamesFor: readonly string[] | undefined;
  #modules: ScriptModules | undefined;
  /** Resolutions by importer and specifier under the current resolver: a program rebuilt on more roots resolves only its new files' imports. */
  #resolutions = new Map<string, ts.ResolvedModuleWithFailedLookupLocations>();
  /** Snapshots by version: a program rebuilt on new roots reads no unchanged file again. */
  readonly #snapshots = new Map<
    string,
    { readonly version: string; readonly snapshot: ts.IScriptSnapshot }
  >();
  /** Parsed files shared by every language service built over this host, and those parsed ahead of them. */
  readonly registry = new PreparingDocumentRegistry();

  constructor(source: IndexHostSource) {
    this.#source = source;
  }

  /** The absolute path the language service uses for a repo-relative path. */
  absolute(relativePath: string): string {
    return posix.join(this.#source.root, relativePath);
  }

  /** The repo-relative path of an absolute language-service path. */
  relative(fileName: string): string {
    const prefix = `${this.#source.root}/`;
    // The service's paths are the host's own, absolute and normalised: under the root, a prefix.
    return fileName.startsWith(prefix) && !fileName.includes('/.')
      ? fileName.slice(prefix.length)
      : posix.relative(this.#source.root, fileName);
  }

  getProjectVersion(): string {
    // Empty: no project version, so the service checks every file's version.
    return this.#source.projectVersion?.() ?? '';
  }

  /** Sets the resolver imports go through; true when it differs from the last one (the service must start over). */
  setModuleResolver(modules: ScriptModules): boolean {
    const changed = this.#modules !== undefined && this.#modules !== modules;
    if (this.#modules !== modules) this.#resolutions = new Map();
    this.#modules = modules;
    return changed;
  }

  /**
   * Module resolution through the index's resolver, so the language service sees exactly the
   * edges `get_imports` shows: relative paths, tsconfig `paths` and `baseUrl`, workspace
   * packages resolved to their source. Third-party packages stay unresolved (never read).
   */
  resolveModuleNameLiterals(
    moduleLiterals: readonly ts.StringLiteralLike[],
    containingFile: string,
  ): readonly ts.ResolvedModuleWithFailedLookupLocations[] {
    const importer = this.relative(containingFile);
    return moduleLiterals.map((literal) => {
      const key = `${importer}\0${literal.text}`;
      let resolution = this.#resolutions.get(key);
      if (resolution === undefined) {
        resolution = this.#resolve(importer, literal.text);
        this.#resolutions.set(key, resolution);
      }
      return resolution;
    });
  }

  #resolve(importer: string, specifier: string): ts.ResolvedModuleWithFailedLookupLocations {
    const resolved = this.#modules?.resolve(importer, specifier);
    if (resolved === undefined) return { resolvedModule: undefined };
    return {
      resolvedModule: {
        resolvedFileName: this.absolute(resolved),
        extension: extensionOf(resolved),
        isExternalLibraryImport: false,
      },
    };
  }

  /**
   * Parses a repo-relative JS/TS file into the registry ahead of the program that will hold it;
   * false when there was nothing to do (parsed before, unreadable, or no file of its module
   * format acquired by the service yet).
   */
  prepare(relativePath: string): boolean {
    const fileName = this.absolute(relativePath);
    const version = this.getScriptVersion(fileName);
    if (version === '') return false;
    const format = ts.getImpliedNodeFormatForFile(fileName, undefined, this, indexCompilerOptions);
    return this.registry.prepare(fileName, version, format, () => this.getScriptSnapshot(fileName));
  }

  getScriptFileNames(): string[] {
    const files = this.#source.rootFiles?.() ?? this.#source.scriptFiles();
    if (this.#fileNamesFor !== files) {
      this.#fileNames = files.map((path) => this.absolute(path));
      this.#fileNamesFor = files;
    }
    return this.#fileNames;
  }

  getScriptVersion(fileName: string): string {
    return this.#source.versionOf(this.relative(fileName)) ?? '';
  }

  getScriptSnapshot(fileName: string): ts.IScriptSnapshot | undefined {
    const version = this.getScriptVersion(fileName);
    const cached = this.#snapshots.get(fileName);
    if (cached !== undefined && cached.version === version) return cached.snapshot;
    const text = this.readFile(fileName);
    if (text === undefined) {
      this.#snapshots.delete(fileName);
      return undefined;
    }
    const snapshot = ts.ScriptSnapshot.fromString(text);
    this.#snapshots.set(fileName, { version, snapshot });
    return snapshot;
  }

  getCurrentDirectory(): string {
    return this.#source.root;
  }

  getCompilationSettings(): ts.CompilerOptions {
    return indexCompilerOptions;
  }

  getDefaultLibFileName(): string {
    return '/__no_default_lib__.d.ts';
  }

  useCaseSensitiveFileNames(): boolean {
    return true;
  }

  fileExists(fileName: string): boolean {
    return this.#source.versionOf(this.relative(fileName)) !== undefined;
  }

  /**
   * Reads a listed file as a regular file inside the root, no larger than when the index
   * versioned it (`mtimeMs:size`): a file swapped since for a FIFO or a device reads as missing.
   * Private key blocks are redacted as `Sandbox.readText` does, so no line the compiler hands
   * back (a definition's source) holds one.
   */
  readFile(fileName: string): string | undefined {
    const version = this.#source.versionOf(this.relative(fileName));
    if (version === undefined) return undefined;
    const maxBytes = sizeOfVersion(version);
    const read = readRegularFileSync(fileName, { root: this.#source.root, maxBytes });
    return read.type === 'file' ? redactPrivateKeys(read.bytes.toString('utf8')) : undefined;
  }

  directoryExists(directoryName: string): boolean {
    const files = this.#source.scriptFiles();
    if (this.#directories === undefined || this.#directoriesFor !== files) {
      this.#directories = new Set();
      for (const file of files) {
        for (let directory = posix.dirname(file); directory !== '.'; directory = posix.dirname(directory)) {
          this.#directories.add(directory);
        }
      }
      this.#directoriesFor = files;
    }
    const relative = this.relative(directoryName);
    return relative === '' || this.#directories.has(relative);
  }
}

const extensions: readonly ts.Extension[] = [
  ts.Extension.Dts,
  ts.Extension.Dmts,
  ts.Extension.Dcts,
  ts.Extension.Ts,
  ts.Extension.Tsx,
  ts.Extension.Mts,
  ts.Extension.Cts,
  ts.Extension.Js,
  ts.Extension.Jsx,
  ts.Extension.Mjs,
  ts.Extension.Cjs,
];

function extensionOf(path: string): ts.Extension {
  return extensions.find((extension) => path.endsWith(extension)) ?? ts.Extension.Ts;
}
