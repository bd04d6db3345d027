import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The code-index fixtures of this repository that the exploration eval asks about. */
export const exploreFixtureNames = [
  'commonjs',
  'esm',
  'folder-index',
  'monorepo',
  'polyglot',
  'python-names',
  'shadowed-member',
  'tsx-library',
] as const;

/** A fixture under `test/fixtures/code-index/` that the exploration eval asks about. */
export type ExploreFixtureName = (typeof exploreFixtureNames)[number];

/** A repository the exploration eval asks about: the installed `axios` package, or a fixture. */
export type ExploreRepositoryName = 'axios' | ExploreFixtureName;

/**
 * The `axios` version the questions were written against, by reading its `lib/` sources. Another
 * version may have moved the code a question points at.
 */
export const axiosVersionOfQuestions = '1.21.1';

/**
 * Where a repository of the exploration eval lives on this machine, or why it is not here.
 * `version` is the installed package's version (for `axios` only).
 */
export type ExploreRepositoryLocation =
  | {
      readonly type: 'found';
      readonly name: ExploreRepositoryName;
      readonly folder: string;
      readonly version?: string;
    }
  | { readonly type: 'missing'; readonly name: ExploreRepositoryName; readonly reason: string };

/** Options of {@link resolveExploreRepository}. */
export interface ResolveExploreRepositoryOptions {
  /**
   * The folder of the `tool-orchestrator` checkout whose `test/fixtures/code-index/` holds the
   * fixtures.
   * @default the nearest folder above this module whose package.json is named `tool-orchestrator`
   */
  readonly packageRoot?: string;
  /**
   * Where `axios` is resolved from, as a file path or `file:` URL (Node's `createRequire` rules).
   * @default this module's own location
   */
  readonly resolveFrom?: string;
}

/**
 * Finds the folder of a repository of the exploration eval, offline, without throwing.
 *
 * - `axios`: the installed `axios` package folder, resolved from this module's location (the
 *   package's own `node_modules` in a checkout, where `axios` is a devDependency; in an app, an
 *   `axios` the app installed). Not a dependency of the published package: when it cannot be
 *   resolved, the result is `missing` with the install command.
 * - a fixture: `test/fixtures/code-index/<name>` under the package root. Fixtures exist only in a
 *   checkout of the repository, not in the published package; there the result is `missing`.
 *
 * A preset can skip the questions of a `missing` repository and print its `reason`.
 *
 * @example
 * const location = resolveExploreRepository('axios');
 * if (location.type === 'missing') console.warn(location.reason);
 */
export function resolveExploreRepository(
  name: ExploreRepositoryName,
  options: ResolveExploreRepositoryOptions = {},
): ExploreRepositoryLocation {
  if (name === 'axios') return resolveAxios(options.resolveFrom ?? moduleFile());
  const packageRoot = options.packageRoot ?? findPackageRoot(dirname(moduleFile()));
  if (packageRoot === undefined) {
    return {
      type: 'missing',
      name,
      reason: `The fixture "${name}" ships only in a checkout of the tool-orchestrator repository, and no tool-orchestrator package.json was found above ${dirname(moduleFile())}. Run the eval from a clone of the repository to include it.`,
    };
  }
  const folder = join(packageRoot, 'test', 'fixtures', 'code-index', name);
  if (!isDirectory(folder)) {
    return {
      type: 'missing',
      name,
      reason: `The fixture "${name}" is not at ${folder}: fixtures ship only in a checkout of the tool-orchestrator repository, not in the published package. Run the eval from a clone of the repository to include it.`,
    };
  }
  return { type: 'found', name, folder };
}

function resolveAxios(resolveFrom: string): ExploreRepositoryLocation {
  let manifestPath: string;
  try {
    manifestPath = createRequire(resolveFrom).resolve('axios/package.json');
  } catch (error) {
    return {
      type: 'missing',
      name: 'axios',
      reason: `The package "axios" could not be resolved from ${resolveFrom} (${error instanceof Error ? error.message.split('\n')[0] : String(error)}). The explore eval reads its sources; install it with \`npm install --save-dev axios@${axiosVersionOfQuestions}\`.`,
    };
  }
  const manifest: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const version =
    typeof manifest === 'object' &&
    manifest !== null &&
    'version' in manifest &&
    typeof manifest.version === 'string'
      ? manifest.version
      : undefined;
  const folder = dirname(manifestPath);
  return version === undefined
    ? { type: 'found', name: 'axios', folder }
    : { type: 'found', name: 'axios', folder, version };
}

/** Walks up from `start` to the folder whose package.json is named `tool-orchestrator`. */
function findPackageRoot(start: string): string | undefined {
  let folder = start;
  for (;;) {
    const manifestPath = join(folder, 'package.json');
    if (existsSync(manifestPath)) {
      try {
        const manifest: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
        if (
          typeof manifest === 'object' &&
          manifest !== null &&
          'name' in manifest &&
          manifest.name === 'tool-orchestrator'
        ) {
          return folder;
        }
      } catch {
        // An unreadable or invalid package.json on the way up is not ours; keep walking.
      }
    }
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * This module's file. `import.meta.url` first: in ESM a global `__filename` can exist that is not
 * ours (`node -e` defines one); the CommonJS build has no `import.meta.url`.
 */
function moduleFile(): string {
  const url = (import.meta as { url?: unknown }).url;
  return typeof url === 'string' && url !== '' ? fileURLToPath(url) : __filename;
}
