import { posix } from 'node:path';

interface GoModule {
  readonly path: string;
  readonly directory: string;
}

/**
 * Resolves Go import paths to the repo's package folders through each `go.mod`'s `module`
 * path: `example.com/app/internal/util` under module `example.com/app` at the root is the
 * folder `internal/util`, and its files are that folder's non-test `.go` files.
 */
export class GoModules {
  readonly #modules: GoModule[] = [];
  readonly #packages = new Map<string, string[]>();

  constructor(files: readonly string[], configs: ReadonlyMap<string, string>) {
    for (const [path, text] of configs) {
      if (path !== 'go.mod' && !path.endsWith('/go.mod')) continue;
      const module = /^\s*module\s+("?)([^\s"]+)\1/m.exec(text)?.[2];
      const directory = posix.dirname(path);
      if (module !== undefined)
        this.#modules.push({ path: module, directory: directory === '.' ? '' : directory });
    }
    this.#modules.sort((left, right) => right.path.length - left.path.length);
    for (const file of files) {
      if (!file.endsWith('.go') || file.endsWith('_test.go')) continue;
      const folder = posix.dirname(file) === '.' ? '' : posix.dirname(file);
      const list = this.#packages.get(folder) ?? [];
      list.push(file);
      this.#packages.set(folder, list);
    }
  }

  /** The package folder of an import path and its files; `undefined` for the standard library and third parties. */
  resolve(specifier: string): { readonly folder: string; readonly files: readonly string[] } | undefined {
    for (const module of this.#modules) {
      if (specifier !== module.path && !specifier.startsWith(`${module.path}/`)) continue;
      const rest = specifier.slice(module.path.length + 1);
      const folder = [module.directory, rest].filter(Boolean).join('/');
      const files = this.#packages.get(folder);
      if (files !== undefined) return { folder, files };
    }
    return undefined;
  }

  /** The non-test `.go` files of a folder: one package. */
  filesOf(folder: string): readonly string[] {
    return this.#packages.get(folder) ?? [];
  }
}
