import { isRelativeSpecifier, resolveImport, resolveModulePath } from '../resolve-import.js';
import { pathsCandidates, TsconfigPaths } from './tsconfig-paths.js';
import type { WorkspacePackage } from './workspace-packages.js';
import {
  collectWorkspacePackages,
  matchWorkspacePackage,
  resolveWorkspaceImport,
} from './workspace-packages.js';

/**
 * Resolves JS/TS import specifiers to repo files as a monorepo's own tooling does: relative
 * paths; then the nearest tsconfig's `paths` (with `extends`) and `baseUrl`; then workspace
 * packages (any named `package.json` of the repo, as npm, pnpm and yarn workspaces link them),
 * to the package's source. Anything else is a third-party package: `undefined`.
 */
export class ScriptModules {
  readonly #exists: (path: string) => boolean;
  readonly #tsconfigs: TsconfigPaths;
  readonly #packages: ReadonlyMap<string, WorkspacePackage>;
  readonly #cache = new Map<string, string | undefined>();

  constructor(configs: ReadonlyMap<string, string>, exists: (path: string) => boolean) {
    this.#exists = exists;
    this.#tsconfigs = new TsconfigPaths(configs);
    this.#packages = new Map(collectWorkspacePackages(configs).map((entry) => [entry.name, entry]));
  }

  /** The workspace packages found, by name. */
  get packages(): ReadonlyMap<string, WorkspacePackage> {
    return this.#packages;
  }

  resolve(importer: string, specifier: string): string | undefined {
    if (isRelativeSpecifier(specifier)) return resolveImport(importer, specifier, this.#exists);
    if (specifier === '' || specifier.startsWith('node:') || /^[a-z]+:/i.test(specifier)) return undefined;
    const resolution = this.#tsconfigs.forFile(importer);
    const key = `${resolution?.pathsBase ?? ''}\n${resolution?.baseUrl ?? ''}\n${specifier}`;
    if (this.#cache.has(key)) return this.#cache.get(key);
    const resolved = this.#resolveBare(specifier, resolution);
    this.#cache.set(key, resolved);
    return resolved;
  }

  #resolveBare(specifier: string, resolution: ReturnType<TsconfigPaths['forFile']>): string | undefined {
    if (resolution !== undefined) {
      for (const candidate of pathsCandidates(resolution, specifier)) {
        const resolved = resolveModulePath(candidate, this.#exists);
        if (resolved !== undefined) return resolved;
      }
      if (resolution.baseUrl !== undefined) {
        const base = resolution.baseUrl === '' ? specifier : `${resolution.baseUrl}/${specifier}`;
        const resolved = resolveModulePath(base, this.#exists);
        if (resolved !== undefined) return resolved;
      }
    }
    const match = matchWorkspacePackage(this.#packages, specifier);
    return match === undefined
      ? undefined
      : resolveWorkspaceImport(match.workspacePackage, match.subpath, this.#exists);
  }
}
