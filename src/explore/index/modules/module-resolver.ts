import { posix } from 'node:path';
import type { ImportRecord } from '../code-symbol.js';
import { isDataModule, languageOf } from '../languages.js';
import { isRelativeSpecifier } from '../resolve-import.js';
import { CIncludes } from './c-includes.js';
import { GoModules } from './go-modules.js';
import { JavaModules } from './java-modules.js';
import { PythonModules } from './python-modules.js';
import { RustModules } from './rust-modules.js';
import { ScriptModules } from './script-modules.js';
import { isTsconfigFile } from './tsconfig-paths.js';

/** Where one import leads in the repo. */
export interface ResolvedImport {
  /** What `get_imports` shows: a file, or a Go package's folder. */
  readonly resolved: string;
  /** Every repo file the import reaches (the file itself, a Go package's files, imported Python submodules). */
  readonly files: readonly string[];
}

/** Resolves the imports of every language the index parses to repo files. */
export interface ModuleResolver {
  /** `undefined` for third-party packages, the standard library and misses. */
  resolve(importer: string, record: Pick<ImportRecord, 'specifier' | 'names'>): ResolvedImport | undefined;
  /** The JS/TS half, for the language service's module resolution. */
  readonly scripts: ScriptModules;
  /** Files a file sees without importing them: its Go or Java package. */
  samePackage(file: string): readonly string[];
}

/** True for the configuration files module resolution reads (package.json, tsconfig, go.mod, Cargo.toml). */
export function isModuleConfigFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base === 'package.json' || base === 'go.mod' || base === 'Cargo.toml' || isTsconfigFile(path);
}

/**
 * Builds the repo's module resolver from its source files and its configuration files' text
 * (`package.json`, `tsconfig*.json`, `jsconfig*.json`, `go.mod`, `Cargo.toml`, by repo path).
 * `rootName` is the repository folder's own name, for a root that is itself a Python package.
 * JSON files among `files` are modules JS/TS imports by their exact relative path
 * (`require('./x.json')`, `import x from './x.json'`), as Node and bundlers load them.
 */
export function createModuleResolver(
  allFiles: readonly string[],
  configs: ReadonlyMap<string, string>,
  rootName?: string,
): ModuleResolver {
  const files = allFiles.filter((path) => languageOf(path) !== undefined);
  const dataModules = new Set(allFiles.filter(isDataModule));
  const known = new Set(files);
  const exists = (path: string): boolean => known.has(path);
  const scripts = new ScriptModules(configs, exists);
  let python: PythonModules | undefined;
  let go: GoModules | undefined;
  let rust: RustModules | undefined;
  let java: JavaModules | undefined;
  let c: CIncludes | undefined;
  const single = (path: string | undefined): ResolvedImport | undefined =>
    path === undefined ? undefined : { resolved: path, files: [path] };
  const many = (paths: readonly string[]): ResolvedImport | undefined =>
    paths[0] === undefined ? undefined : { resolved: paths[0], files: paths };
  return {
    scripts,
    resolve(importer, { specifier, names }) {
      switch (languageOf(importer)) {
        case 'typescript':
        case 'javascript':
          return single(scripts.resolve(importer, specifier) ?? dataModule(importer, specifier));
        case 'python':
          return many(
            (python ??= new PythonModules(files, exists, rootName)).resolve(importer, specifier, names),
          );
        case 'go': {
          const found = (go ??= new GoModules(files, configs)).resolve(specifier);
          return found === undefined ? undefined : { resolved: found.folder, files: found.files };
        }
        case 'rust':
          return many((rust ??= new RustModules(configs, exists)).resolve(importer, specifier, names));
        case 'java':
        case 'kotlin':
          return many((java ??= new JavaModules(files)).resolve(specifier, names));
        case 'c':
        case 'cpp': {
          const angled = specifier.startsWith('<') && specifier.endsWith('>');
          const path = angled ? specifier.slice(1, -1) : specifier;
          return single((c ??= new CIncludes(files, exists)).resolve(importer, path, !angled));
        }
        default:
          return undefined;
      }
    },
    samePackage(file) {
      const language = languageOf(file);
      if (language === 'go') return (go ??= new GoModules(files, configs)).filesOf(folderOf(file));
      if (language === 'java' || language === 'kotlin')
        return (java ??= new JavaModules(files)).samePackage(file);
      return [];
    },
  };

  /** A relative specifier naming a JSON file exactly; apart from `scripts`, whose answers the language service loads as code. */
  function dataModule(importer: string, specifier: string): string | undefined {
    if (!isDataModule(specifier) || !isRelativeSpecifier(specifier)) return undefined;
    const path = posix.normalize(posix.join(posix.dirname(importer), specifier));
    return dataModules.has(path) ? path : undefined;
  }
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
