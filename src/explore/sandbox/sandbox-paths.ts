import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
