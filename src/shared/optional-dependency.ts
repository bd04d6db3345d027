import { MissingDependencyError } from '../errors/missing-dependency-error.js';

/** Options of {@link optionalDependency}. */
export interface OptionalDependencyOptions<Module> {
  /** The npm package (an optional peer dependency), e.g. `'typescript'` or `'web-tree-sitter'`. */
  readonly packageName: string;
  /** The versions that work, as an npm range, for the message. */
  readonly versionRange: string;
  /** The command that installs a working version, e.g. `'npm install typescript@5'`. */
  readonly installCommand: string;
  /** What needs the package, for the message, e.g. `'The code intelligence tools (get_symbols, ...)'`. */
  readonly neededFor: string;
  /**
   * Imports the module that imports the package. Write it as a literal `() => import('./x.js')`
   * so bundlers keep that module (and the package) in a chunk loaded only on first use.
   */
  readonly load: () => Promise<Module>;
  /**
   * Imports a light module that only reports the installed package's version (for typescript,
   * `ts.version`), checked with `acceptsVersion` before `load` runs: a major version with another
   * API (typescript 7 has no compiler API) would otherwise fail inside `load` with a bare `TypeError`.
   */
  readonly version?: () => Promise<string>;
  /** Whether an installed version works. @default every version */
  readonly acceptsVersion?: (version: string) => boolean;
}

/**
 * Makes a lazy loader for code that needs an optional peer dependency: the first call imports
 * it and later calls share that promise; a failed load is retried on the next call (the user
 * may install the package meanwhile). When the package itself cannot be found, or its version
 * is not accepted, the loader rejects with a {@link MissingDependencyError} naming the package
 * and the install command; any other failure is passed through unchanged.
 *
 * @example
 * const loadEngine = optionalDependency({
 *   packageName: 'typescript',
 *   versionRange: '>=5.3.0 <7',
 *   installCommand: 'npm install typescript@5',
 *   neededFor: 'The code intelligence tools',
 *   version: async () => (await import('./typescript-version.js')).typescriptVersion,
 *   acceptsVersion: (version) => ['5', '6'].includes(version.split('.')[0] ?? ''),
 *   load: () => import('./code-index-engine.js'),
 * });
 */
export function optionalDependency<Module>(
  options: OptionalDependencyOptions<Module>,
): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () => {
    loading ??= load(options);
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}

async function load<Module>(options: OptionalDependencyOptions<Module>): Promise<Module> {
  try {
    const version = await options.version?.();
    if (version !== undefined && options.acceptsVersion?.(version) === false) {
      throw new MissingDependencyError({ ...options, problem: `but version ${version} is installed` });
    }
    return await options.load();
  } catch (error) {
    if (!isMissingPackage(error, options.packageName)) throw error;
    throw new MissingDependencyError({ ...options, cause: error });
  }
}

/** True for Node's "cannot find" error about `packageName` itself (ESM or CommonJS), not about a file of ours. */
export function isMissingPackage(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const name = packageName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return typeof message === 'string' && new RegExp(`['"]${name}(?:/[^'"]*)?['"]`).test(message);
}
