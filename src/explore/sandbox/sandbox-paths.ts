import { realpathSync } from 'node:fs';
import { isAbsolute, join, parse, relative, sep } from 'node:path';

/** Joins a repo-relative directory ('.' for the root) and a path below it. */
export function joinRelative(directory: string, below: string): string {
  if (below === '') return directory;
  return directory === '.' ? below : `${directory}/${below}`;
}

/**
 * The real path of `absolute`, or of its deepest existing ancestor joined with the rest. That
 * ancestor is found by bisection (whether a prefix resolves is monotone in its length), so a
 * path of thousands of missing segments costs a dozen `realpath` calls and no deep recursion.
 */
export function realPathOfExisting(absolute: string): string {
  const resolved = tryRealPath(absolute);
  if (resolved !== undefined) return resolved;
  const { root } = parse(absolute);
  const segments = absolute
    .slice(root.length)
    .split(sep)
    .filter((segment) => segment !== '');
  const prefix = (length: number): string => root + segments.slice(0, length).join(sep);
  // prefix(found) resolves (the file system root always does); prefix(missing) does not.
  let found = 0;
  let missing = segments.length;
  let real = tryRealPath(root) ?? root;
  while (missing - found > 1) {
    const middle = Math.floor((found + missing) / 2);
    const candidate = tryRealPath(prefix(middle));
    if (candidate === undefined) missing = middle;
    else [found, real] = [middle, candidate];
  }
  return join(real, ...segments.slice(found));
}

function tryRealPath(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** True when `absolute` is `directory` or lies below it (both absolute, resolved the same way). */
export function isInsideDirectory(directory: string, absolute: string): boolean {
  const below = relative(directory, absolute);
  return below === '' || (below !== '..' && !below.startsWith(`..${sep}`) && !isAbsolute(below));
}
