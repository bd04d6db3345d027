/**
 * A file's version in the code index: `mtimeMs:size` from its stat, with `:n` appended when a
 * watcher saw a change that kept both (so the version still changes).
 */
export type FileVersion = string;

/** The version of a file from its stat. */
export function statVersion(stats: { readonly mtimeMs: number; readonly size: number }): FileVersion {
  return `${stats.mtimeMs}:${stats.size}`;
}

/**
 * The version of a file a watcher reported changed, now stat'ed as `stated`: `stated` itself, or,
 * when that is what `previous` already was (the edit kept the modification time and size),
 * `stated` with the `changeCount` appended.
 */
export function watchedVersion(
  previous: FileVersion | undefined,
  stated: FileVersion,
  changeCount: number,
): FileVersion {
  const looksSame = previous === stated || previous?.startsWith(`${stated}:`) === true;
  return looksSame ? `${stated}:${changeCount}` : stated;
}

/** The modification time (ms) in a version. */
export function mtimeOfVersion(version: FileVersion): number {
  return Number(version.split(':')[0]);
}

/** The size (bytes) in a version. */
export function sizeOfVersion(version: FileVersion): number {
  return Number(version.split(':')[1]);
}
