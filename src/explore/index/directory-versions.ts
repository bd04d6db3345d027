import { stat } from 'node:fs/promises';
import { posix } from 'node:path';

const statConcurrency = 64;
/** A folder changed this close to the start of a listing walk may have changed during it. */
const walkSlackMs = 2000;

/** Folders (repo-relative, `.` for the root) and their mtime as of a listing; `NaN` for one that may have changed during the walk. */
export type DirectoryVersions = ReadonlyMap<string, number>;

/** The root and every folder above a listed file: an entry added, removed or renamed in any of them changes its mtime. */
export function directoriesOf(files: readonly string[]): string[] {
  const directories = new Set<string>(['.']);
  for (const file of files) {
    for (let end = file.lastIndexOf('/'); end > 0; end = file.lastIndexOf('/', end - 1)) {
      const directory = file.slice(0, end);
      if (directories.has(directory)) break;
      directories.add(directory);
    }
  }
  return [...directories];
}

async function mtimesOf(
  root: string,
  directories: readonly string[],
  signal: AbortSignal | undefined,
): Promise<number[]> {
  const mtimes: number[] = [];
  for (let start = 0; start < directories.length; start += statConcurrency) {
    signal?.throwIfAborted();
    const batch = directories.slice(start, start + statConcurrency);
    const batchStats = await Promise.all(
      batch.map((directory) => stat(posix.join(root, directory)).catch(() => undefined)),
    );
    for (const stats of batchStats) mtimes.push(stats?.isDirectory() === true ? stats.mtimeMs : Number.NaN);
  }
  return mtimes;
}

/**
 * The mtimes of the folders holding `files`, stat'ed after a walk that started at `walkStartedAt`
 * (epoch ms). A folder changed about then gets `NaN`, which never matches: the next check lists
 * again rather than trust a walk that may have missed the change.
 */
export async function directoryVersions(
  root: string,
  files: readonly string[],
  walkStartedAt: number,
  signal?: AbortSignal,
): Promise<DirectoryVersions> {
  const directories = directoriesOf(files);
  const mtimes = await mtimesOf(root, directories, signal);
  return new Map(
    directories.map((directory, index) => {
      const mtime = mtimes[index] ?? Number.NaN;
      return [directory, mtime >= walkStartedAt - walkSlackMs ? Number.NaN : mtime];
    }),
  );
}

/** True when a folder of `versions` has a different mtime now (an entry added, removed or renamed in it) or is gone. */
export async function directoriesChanged(
  root: string,
  versions: DirectoryVersions,
  signal?: AbortSignal,
): Promise<boolean> {
  const directories = [...versions.keys()];
  const mtimes = await mtimesOf(root, directories, signal);
  return directories.some((directory, index) => mtimes[index] !== versions.get(directory));
}
