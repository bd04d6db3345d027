import { posix } from 'node:path';
import { resolveModulePath } from '../resolve-import.js';
import { parseJsonc } from './parse-jsonc.js';

/** A package of the repository: a `package.json` with a name (npm, pnpm and yarn workspaces alike). */
export interface WorkspacePackage {
  readonly name: string;
  /** Repo-relative folder of its `package.json` (`` for the root). */
  readonly directory: string;
  readonly manifest: Readonly<Record<string, unknown>>;
}

// Conditions read in this order: the source first, then typings, then what a bundler loads.
const conditionOrder = ['source', 'development', 'types', 'typings', 'import', 'module', 'require', 'node'];
/** Output folders whose files map back to `src/` (a package built from `src/` into `dist/`). */
const outputFolder =
  /^(?:\.\/)?(?:dist|lib|build|out|esm|cjs|es|types|typings|module)(?:\/(?:esm|cjs|es|types|src))?\//;
const outputExtension = /(?:\.d)?\.[cm]?[jt]sx?$/;

/** Reads every named `package.json` of the listing. Later duplicates of a name are ignored (the shallowest wins). */
export function collectWorkspacePackages(configs: ReadonlyMap<string, string>): WorkspacePackage[] {
  const byName = new Map<string, WorkspacePackage>();
  const manifests = [...configs.keys()]
    .filter((path) => path === 'package.json' || path.endsWith('/package.json'))
    .sort((left, right) => left.split('/').length - right.split('/').length || (left < right ? -1 : 1));
  for (const path of manifests) {
    const manifest = parseJsonc(configs.get(path) ?? '');
    const name = manifest?.['name'];
    if (manifest === undefined || typeof name !== 'string' || name === '' || byName.has(name)) continue;
    byName.set(name, { name, directory: posix.dirname(path) === '.' ? '' : posix.dirname(path), manifest });
  }
  return [...byName.values()];
}

function conditionTargets(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) conditionTargets(item, into);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = [
      ...conditionOrder.filter((key) => key in record),
      ...Object.keys(record).filter((key) => !conditionOrder.includes(key)),
    ];
    for (const key of keys) conditionTargets(record[key], into);
  }
}

/** The `exports` targets of a subpath (`.` or `./x`), `*` patterns expanded. */
function exportTargets(exportsField: unknown, subpath: string): string[] {
  const targets: string[] = [];
  if (exportsField === undefined || exportsField === null) return targets;
  const isSubpathMap =
    typeof exportsField === 'object' &&
    !Array.isArray(exportsField) &&
    Object.keys(exportsField).some((key) => key.startsWith('.'));
  if (!isSubpathMap) {
    if (subpath === '.') conditionTargets(exportsField, targets);
    return targets;
  }
  const map = exportsField as Record<string, unknown>;
  if (subpath in map) conditionTargets(map[subpath], targets);
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (!subpath.startsWith(prefix) || !subpath.endsWith(suffix) || subpath.length < key.length - 1) continue;
    const matched = subpath.slice(prefix.length, subpath.length - suffix.length);
    const expanded: string[] = [];
    conditionTargets(value, expanded);
    targets.push(...expanded.map((target) => target.replaceAll('*', matched)));
  }
  return targets;
}

/**
 * The repo file an import of a workspace package resolves to, its source preferred: the
 * `exports` / `source` / `types` / `module` / `main` targets mapped from the output folder
 * (`dist/`, `lib/`, ...) back to `src/`, then `src/index.*` (or `src/<subpath>`), then those
 * targets as they are, then `index.*`.
 */
export function resolveWorkspaceImport(
  workspacePackage: WorkspacePackage,
  subpath: string,
  exists: (path: string) => boolean,
): string | undefined {
  const { manifest, directory } = workspacePackage;
  const inPackage = (path: string): string => posix.normalize(posix.join(directory, path));
  const targets = exportTargets(manifest['exports'], subpath === '' ? '.' : `./${subpath}`);
  if (subpath === '') {
    for (const field of ['source', 'types', 'typings', 'module', 'main']) {
      const value = manifest[field];
      if (typeof value === 'string') targets.push(value);
    }
  } else targets.push(subpath);
  const sources = targets
    .filter((target) => outputFolder.test(target))
    .map((target) => target.replace(outputFolder, 'src/').replace(outputExtension, ''));
  // The package's source first: a root `index.mjs` shim that loads `dist/` is not where the code is.
  const order =
    subpath === ''
      ? [...sources, 'src/index', ...targets, 'index']
      : [...sources, `src/${subpath}`, ...targets];
  for (const candidate of order) {
    if (candidate.includes('*')) continue;
    const resolved = resolveModulePath(inPackage(candidate), exists);
    if (resolved !== undefined && !resolved.startsWith('../')) return resolved;
  }
  return undefined;
}

/** The workspace package a bare specifier names (`@scope/name` or `@scope/name/sub`) and the subpath. */
export function matchWorkspacePackage(
  packages: ReadonlyMap<string, WorkspacePackage>,
  specifier: string,
): { readonly workspacePackage: WorkspacePackage; readonly subpath: string } | undefined {
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  const workspacePackage = packages.get(name);
  if (workspacePackage === undefined) return undefined;
  return { workspacePackage, subpath: parts.slice(nameLength).join('/') };
}
