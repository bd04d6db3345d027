import { posix } from 'node:path';

function folderOf(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}

function inFolder(folder: string, path: string): string {
  if (path === '') return folder;
  return folder === '' ? path : `${folder}/${path}`;
}

/**
 * Resolves Python imports to repo files: relative imports (`from ..a import b`) from the
 * importer's package, absolute ones (`import pkg.mod`) first from the importer's own folder when
 * that folder is no package (a script's folder is first on `sys.path`, as the interpreter runs
 * it), then from the import roots, the folders that hold the repo's top-level packages (a folder
 * with `__init__.py` whose parent has none), plus the root and `src/`. A module is `mod.py` or
 * `mod/__init__.py`; names imported from a package that are submodules resolve to those files too.
 */
export class PythonModules {
  readonly #exists: (path: string) => boolean;
  /** Top-level package or module name → the import roots that hold it. */
  readonly #roots = new Map<string, string[]>();

  readonly #rootPackage: string | undefined;
  /** Folders holding an `__init__.py`: their files are modules of a package, not scripts. */
  readonly #packages: ReadonlySet<string>;

  /** @param rootPackage the repository folder's own name: when the root itself is a package (`__init__.py`), `name.x` is `x`. */
  constructor(files: readonly string[], exists: (path: string) => boolean, rootPackage?: string) {
    this.#exists = exists;
    this.#rootPackage = rootPackage !== undefined && exists('__init__.py') ? rootPackage : undefined;
    const packages = new Set(
      files.filter((file) => file.endsWith('/__init__.py') || file === '__init__.py').map(folderOf),
    );
    this.#packages = packages;
    const addRoot = (name: string, root: string): void => {
      const roots = this.#roots.get(name) ?? [];
      if (!roots.includes(root)) roots.push(root);
      this.#roots.set(name, roots);
    };
    for (const folder of packages) {
      if (folder === '' || packages.has(folderOf(folder))) continue;
      addRoot(posix.basename(folder), folderOf(folder));
    }
    for (const file of files) {
      if (!file.endsWith('.py') || packages.has(folderOf(file))) continue;
      const folder = folderOf(file);
      if (folder === '' || folder === 'src') addRoot(posix.basename(file, '.py'), folder);
    }
  }

  #module(path: string): string | undefined {
    if (this.#exists(`${path}.py`)) return `${path}.py`;
    if (this.#exists(`${path}/__init__.py`)) return `${path}/__init__.py`;
    if (this.#exists(`${path}.pyi`)) return `${path}.pyi`;
    return undefined;
  }

  /** The base folder of a module path: relative from the importer, absolute from the root nearest the importer. */
  #bases(importer: string, specifier: string): { readonly base: string; readonly parts: string[] }[] {
    const level = /^\.*/.exec(specifier)?.[0].length ?? 0;
    const parts = specifier.slice(level).split('.').filter(Boolean);
    if (level > 0) {
      let base = folderOf(importer);
      for (let up = 1; up < level; up += 1) {
        if (base === '') return [];
        base = folderOf(base);
      }
      return [{ base, parts }];
    }
    if (parts[0] !== undefined && parts[0] === this.#rootPackage && !this.#roots.has(parts[0]))
      return [{ base: '', parts: parts.slice(1) }];
    const roots = [...(this.#roots.get(parts[0] ?? '') ?? [])];
    // The root sharing the longest prefix with the importer first (a vendored copy of a package wins for its own files).
    roots.sort((left, right) => sharedLength(importer, right) - sharedLength(importer, left));
    const folder = folderOf(importer);
    const ownFolder = this.#packages.has(folder) || roots.includes(folder) ? [] : [folder];
    return [...ownFolder, ...roots].map((base) => ({ base, parts }));
  }

  /** The repo files an import resolves to: the module first, then imported submodules. */
  resolve(importer: string, specifier: string, names: readonly string[]): string[] {
    for (const { base, parts } of this.#bases(importer, specifier)) {
      const modulePath = inFolder(base, parts.join('/'));
      // `from . import x`: the package itself is `__init__.py` of the base folder.
      const packageInit =
        parts.length === 0 ? this.#existing(inFolder(base, '__init__.py')) : this.#module(modulePath);
      const resolved: string[] = [];
      if (packageInit !== undefined) resolved.push(packageInit);
      for (const name of names) {
        if (name === '*') continue;
        const submodule = this.#module(inFolder(modulePath, name));
        if (submodule !== undefined && !resolved.includes(submodule)) resolved.push(submodule);
      }
      if (resolved.length > 0) return resolved;
      // `import a.b.c` where `c` is a name in module `a.b`: the longest existing prefix.
      for (let length = parts.length - 1; length > 0; length -= 1) {
        const prefix = this.#module(inFolder(base, parts.slice(0, length).join('/')));
        if (prefix !== undefined) return [prefix];
      }
    }
    return [];
  }

  #existing(path: string): string | undefined {
    return this.#exists(path) ? path : undefined;
  }
}

function sharedLength(left: string, right: string): number {
  let index = 0;
  while (index < left.length && index < right.length && left[index] === right[index]) index += 1;
  return index;
}
