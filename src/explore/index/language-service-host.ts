import { posix } from 'node:path';
import ts from 'typescript';
import { readRegularFileSync } from '../sandbox/read-regular-file.js';

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
  /** Repo-relative paths of the JS/TS files in the program. */
  scriptFiles(): readonly string[];
  /** `mtimeMs:size` of a repo-relative file, or `undefined` when it is not in the program. */
  versionOf(relativePath: string): string | undefined;
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

  constructor(source: IndexHostSource) {
    this.#source = source;
  }

  /** The absolute path the language service uses for a repo-relative path. */
  absolute(relativePath: string): string {
    return posix.join(this.#source.root, relativePath);
  }

  /** The repo-relative path of an absolute language-service path. */
  relative(fileName: string): string {
    return posix.relative(this.#source.root, fileName);
  }

  getScriptFileNames(): string[] {
    const files = this.#source.scriptFiles();
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
    const text = this.readFile(fileName);
    return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
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
   */
  readFile(fileName: string): string | undefined {
    const version = this.#source.versionOf(this.relative(fileName));
    if (version === undefined) return undefined;
    const maxBytes = Number(version.slice(version.lastIndexOf(':') + 1));
    const read = readRegularFileSync(fileName, { root: this.#source.root, maxBytes });
    return read.type === 'file' ? read.bytes.toString('utf8') : undefined;
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
