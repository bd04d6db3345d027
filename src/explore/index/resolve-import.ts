import { posix } from 'node:path';
import { resolvableExtensions } from './languages.js';

/** Emitted extensions and the source extensions TypeScript maps them back to, in its order. */
const emittedToSource: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx', '.d.ts'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};

/** True for a relative specifier: `.`, `..`, `./x`, `../x`. */
export function isRelativeSpecifier(specifier: string): boolean {
  return specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../');
}

/**
 * Resolves a repo-relative module path (no extension needed) to a repo file as TypeScript's
 * bundler resolution does: the exact file, then `.js` → `.ts`/`.tsx`/`.d.ts` (and the `.mjs`,
 * `.cjs` flavours), then each extension, then `index.*` in the folder.
 *
 * A declaration file's imports name typings: `./index.js` from `types.d.ts` is `index.d.ts`
 * even beside an `index.js`. Other importers get the file they name when it exists.
 *
 * @param target repo-relative and normalized; `.` or `` for the root, a trailing `/` allowed
 */
export function resolveModulePath(
  target: string,
  exists: (path: string) => boolean,
  options: { readonly fromDeclaration?: boolean } = {},
): string | undefined {
  const path = target.replace(/\/+$/, '');
  const isFolder = path === '' || path === '.' || target.endsWith('/');
  if (!isFolder) {
    const extension = posix.extname(path);
    const mapped = (emittedToSource[extension] ?? []).map(
      (replacement) => path.slice(0, -extension.length) + replacement,
    );
    const order = options.fromDeclaration === true ? [...mapped, path] : [path, ...mapped];
    for (const candidate of order) if (exists(candidate)) return candidate;
    for (const candidate of resolvableExtensions) if (exists(path + candidate)) return path + candidate;
  }
  const folder = path === '' || path === '.' ? '' : `${path}/`;
  for (const candidate of resolvableExtensions) {
    if (exists(`${folder}index${candidate}`)) return `${folder}index${candidate}`;
  }
  return undefined;
}

/**
 * Resolves a relative import specifier (`./x`, `../y/z.js`, `./`) of `importer` to a repo file
 * (see {@link resolveModulePath}). Returns `undefined` for bare specifiers, paths leaving the
 * repo and misses.
 *
 * @param importer repo-relative path of the importing file, `/`-separated
 * @param exists whether a repo-relative path is a known file
 */
export function resolveImport(
  importer: string,
  specifier: string,
  exists: (path: string) => boolean,
): string | undefined {
  if (!isRelativeSpecifier(specifier)) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(importer), specifier));
  if (joined === '..' || joined.startsWith('../')) return undefined;
  // `./` and `..` name a folder: only its index can answer.
  const folder =
    specifier.endsWith('/') || specifier === '.' || specifier === '..' || /\/\.\.?$/.test(specifier);
  return resolveModulePath(folder && !joined.endsWith('/') ? `${joined}/` : joined, exists, {
    fromDeclaration: /\.d\.[cm]?ts$/.test(importer),
  });
}
