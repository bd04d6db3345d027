import { posix } from 'node:path';
import { resolvableExtensions } from './languages.js';

const emittedToSource: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/**
 * Resolves a relative import specifier (`./x`, `../y/z.js`) of `importer` to a repo file:
 * the exact path, then TypeScript's `.js` → `.ts` mapping, then each extension, then
 * `index.*` in a directory. Returns `undefined` for bare specifiers (packages) and misses.
 *
 * @param importer repo-relative path of the importing file, `/`-separated
 * @param exists whether a repo-relative path is a known file
 */
export function resolveImport(
  importer: string,
  specifier: string,
  exists: (path: string) => boolean,
): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..')
    return undefined;
  const target = posix.normalize(posix.join(posix.dirname(importer), specifier));
  if (target.startsWith('../')) return undefined;
  if (exists(target)) return target;
  const extension = posix.extname(target);
  for (const replacement of emittedToSource[extension] ?? []) {
    const candidate = target.slice(0, -extension.length) + replacement;
    if (exists(candidate)) return candidate;
  }
  for (const candidate of resolvableExtensions) {
    if (exists(target + candidate)) return target + candidate;
  }
  for (const candidate of resolvableExtensions) {
    const indexFile = `${target === '.' ? '' : `${target}/`}index${candidate}`;
    if (exists(indexFile)) return indexFile;
  }
  return undefined;
}
