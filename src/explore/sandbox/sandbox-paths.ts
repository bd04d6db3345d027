import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

/** Joins a repo-relative directory ('.' for the root) and a path below it. */
export function joinRelative(directory: string, below: string): string {
  if (below === '') return directory;
  return directory === '.' ? below : `${directory}/${below}`;
}

/** The real path of `absolute`, or of its deepest existing ancestor joined with the rest. */
export function realPathOfExisting(absolute: string): string {
  try {
    return realpathSync.native(absolute);
  } catch {
    const parent = dirname(absolute);
    if (parent === absolute) return absolute;
    return join(realPathOfExisting(parent), absolute.slice(parent.length + 1));
  }
}

/** True when `absolute` is `directory` or lies below it (both absolute, resolved the same way). */
export function isInsideDirectory(directory: string, absolute: string): boolean {
  const below = relative(directory, absolute);
  return below === '' || (below !== '..' && !below.startsWith(`..${sep}`) && !isAbsolute(below));
}
