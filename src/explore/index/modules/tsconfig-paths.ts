import { posix } from 'node:path';
import { parseJsonc } from './parse-jsonc.js';

/** One `paths` entry: `@app/*` → `['src/app/*']`, targets relative to `base`. */
interface PathMapping {
  readonly pattern: string;
  readonly targets: readonly string[];
}

/** What module resolution needs of a tsconfig/jsconfig, `extends` applied. Folders are repo-relative. */
export interface TsconfigResolution {
  /** `baseUrl`, repo-relative, when set. */
  readonly baseUrl?: string;
  /** The folder `paths` targets are relative to: `baseUrl`, else the config that declared `paths`. */
  readonly pathsBase: string;
  /** The folder of the config that declared `paths` (the base when there is no `baseUrl`). */
  readonly pathsDeclaredIn: string;
  readonly paths: readonly PathMapping[];
}

const configNames = ['tsconfig.json', 'jsconfig.json'];
const maxExtendsDepth = 8;

function folderOf(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}

function join(folder: string, path: string): string {
  const joined = posix.normalize(posix.join(folder, path));
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

/** True for the config files the resolver reads: `tsconfig*.json` and `jsconfig*.json`. */
export function isTsconfigFile(path: string): boolean {
  return /(?:^|\/)(?:ts|js)config(?:\.[\w.-]+)?\.json$/.test(path);
}

/**
 * The tsconfig/jsconfig files of the repo with their `extends` chains (repo files only) applied
 * to `baseUrl` and `paths`, and the nearest one for any file, as TypeScript picks a project.
 */
export class TsconfigPaths {
  readonly #configs: ReadonlyMap<string, string>;
  readonly #resolved = new Map<string, TsconfigResolution | undefined>();
  readonly #nearest = new Map<string, TsconfigResolution | undefined>();

  constructor(configs: ReadonlyMap<string, string>) {
    this.#configs = configs;
  }

  /** The resolution settings of the nearest tsconfig.json (or jsconfig.json) above `file`. */
  forFile(file: string): TsconfigResolution | undefined {
    return this.#forFolder(folderOf(file));
  }

  #forFolder(folder: string): TsconfigResolution | undefined {
    if (this.#nearest.has(folder)) return this.#nearest.get(folder);
    let found: TsconfigResolution | undefined;
    const config = configNames
      .map((name) => (folder === '' ? name : `${folder}/${name}`))
      .find((path) => this.#configs.has(path));
    if (config !== undefined) found = this.#load(config, 0);
    else if (folder !== '') found = this.#forFolder(folderOf(folder));
    this.#nearest.set(folder, found);
    return found;
  }

  #load(path: string, depth: number): TsconfigResolution | undefined {
    if (this.#resolved.has(path)) return this.#resolved.get(path);
    this.#resolved.set(path, undefined); // an `extends` cycle ends here
    const json = parseJsonc(this.#configs.get(path) ?? '');
    if (json === undefined) return undefined;
    let inherited: TsconfigResolution | undefined;
    const extendsField = json['extends'];
    const parents = Array.isArray(extendsField) ? extendsField : [extendsField];
    for (const parent of parents) {
      if (typeof parent !== 'string' || !parent.startsWith('.') || depth >= maxExtendsDepth) continue;
      const target = join(folderOf(path), parent);
      const candidates = target.endsWith('.json') ? [target] : [target, `${target}.json`];
      const parentPath = candidates.find((candidate) => this.#configs.has(candidate));
      const loaded = parentPath === undefined ? undefined : this.#load(parentPath, depth + 1);
      if (loaded !== undefined) inherited = { ...inherited, ...loaded };
    }
    const options = json['compilerOptions'];
    const compilerOptions =
      typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
    const baseUrl =
      typeof compilerOptions['baseUrl'] === 'string'
        ? join(folderOf(path), compilerOptions['baseUrl'])
        : inherited?.baseUrl;
    const pathsField = compilerOptions['paths'];
    let paths = inherited?.paths ?? [];
    let pathsDeclaredIn = inherited?.pathsDeclaredIn ?? folderOf(path);
    if (typeof pathsField === 'object' && pathsField !== null) {
      paths = Object.entries(pathsField as Record<string, unknown>).map(([pattern, targets]) => ({
        pattern,
        targets: Array.isArray(targets)
          ? targets.filter((target): target is string => typeof target === 'string')
          : [],
      }));
      pathsDeclaredIn = folderOf(path);
    }
    // TypeScript: `paths` are relative to `baseUrl` when set, else to the config declaring them.
    const resolution: TsconfigResolution = {
      ...(baseUrl === undefined ? {} : { baseUrl }),
      pathsBase: baseUrl ?? pathsDeclaredIn,
      pathsDeclaredIn,
      paths,
    };
    this.#resolved.set(path, resolution);
    return resolution;
  }
}

/**
 * The candidate module paths (repo-relative, unresolved) of a bare specifier under a config's
 * `paths`, as TypeScript matches them: an exact pattern first, else the `*` pattern with the
 * longest prefix, its targets in order.
 */
export function pathsCandidates(resolution: TsconfigResolution, specifier: string): string[] {
  let best: { mapping: PathMapping; matched: string; prefixLength: number } | undefined;
  for (const mapping of resolution.paths) {
    const star = mapping.pattern.indexOf('*');
    if (star === -1) {
      if (mapping.pattern === specifier) {
        best = { mapping, matched: '', prefixLength: Number.POSITIVE_INFINITY };
        break;
      }
      continue;
    }
    const prefix = mapping.pattern.slice(0, star);
    const suffix = mapping.pattern.slice(star + 1);
    if (
      specifier.length >= prefix.length + suffix.length &&
      specifier.startsWith(prefix) &&
      specifier.endsWith(suffix) &&
      (best === undefined || prefix.length > best.prefixLength)
    ) {
      best = {
        mapping,
        matched: specifier.slice(prefix.length, specifier.length - suffix.length),
        prefixLength: prefix.length,
      };
    }
  }
  if (best === undefined) return [];
  const { mapping, matched } = best;
  return mapping.targets.map((target) => join(resolution.pathsBase, target.replace('*', matched)));
}
