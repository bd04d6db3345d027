import { statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { posix } from 'node:path';
import { inTimeSlices } from '../../shared/time-slices.js';
import { statVersion } from './file-version.js';

/**
 * `mtimeMs:size` of each of `files` (relative to `root`), `undefined` for one that is missing, not
 * a file or over `maxFileBytes`. Synchronous stats in time slices: thousands of them cost less so
 * than as thread-pool round trips.
 */
export async function statVersions(
  root: string,
  maxFileBytes: number,
  files: readonly string[],
  signal: AbortSignal | undefined,
): Promise<(string | undefined)[]> {
  const versions: (string | undefined)[] = [];
  await inTimeSlices(
    files,
    (file) => {
      let stats: Stats | undefined;
      try {
        stats = statSync(posix.join(root, file), { throwIfNoEntry: false });
      } catch {
        stats = undefined;
      }
      versions.push(stats?.isFile() === true && stats.size <= maxFileBytes ? statVersion(stats) : undefined);
    },
    { signal },
  );
  return versions;
}
