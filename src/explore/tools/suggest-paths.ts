import type { Sandbox } from '../sandbox/sandbox.js';

/**
 * Finds the existing files closest to a path that does not exist: same basename first,
 * then the smallest edit distance between basenames, then between whole paths.
 * Returns at most `count` repo-relative paths, none when nothing is close.
 */
export async function suggestPaths(sandbox: Sandbox, missing: string, count = 5): Promise<string[]> {
  let files: string[];
  try {
    files = await sandbox.listFiles();
  } catch {
    return [];
  }
  const wanted = missing.replace(/\\/g, '/').replace(/^\.\//, '').toLowerCase();
  const wantedBase = basename(wanted);
  const scored: { file: string; score: number }[] = [];
  for (const file of files) {
    const lower = file.toLowerCase();
    const base = basename(lower);
    // Only basenames are compared for every file: whole-path distances on 50,000 files would be slow.
    if (Math.abs(base.length - wantedBase.length) > Math.max(3, wantedBase.length / 2)) continue;
    const distance = lower.endsWith(`/${wanted}`) ? 0 : editDistance(base, wantedBase);
    if (distance <= Math.max(2, Math.floor(wantedBase.length / 3))) scored.push({ file, score: distance });
  }
  for (const entry of scored)
    entry.score = entry.score * 1000 + editDistance(entry.file.toLowerCase(), wanted);
  return scored
    .sort((left, right) => left.score - right.score || left.file.localeCompare(right.file))
    .slice(0, count)
    .map((entry) => entry.file);
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Levenshtein distance, two rows of memory. */
export function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= right.length; column += 1) {
      const substitution = (previous[column - 1] ?? 0) + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}
