import { statSync } from 'node:fs';
import { join } from 'node:path';
import { inTimeSlices } from '../../shared/time-slices.js';

/** A change this close before a walk began may share a timestamp tick with a later one, so it proves nothing. */
const racyWindowMs = 2_000;

/**
 * The change stamps of the folders a file listing read: each folder's own and its `.gitignore`'s.
 * An entry added, deleted or renamed in a folder changes the folder's stamp; an edited
 * `.gitignore` changes its own.
 */
export interface ListingStamps {
  /** Repo-relative folders ('' or '.' for the root). */
  readonly directories: readonly string[];
  /** `mtimeNs:ctimeNs:size:inode` of each folder, `|`, the same of its `.gitignore` ('-' when absent). */
  readonly stamps: readonly string[];
}

/**
 * The folders whose stamps tell whether `files` is still the listing: the folders the walk read,
 * when the listing names them (the sandbox's `FileListing`), else the root and every folder above
 * a listed file.
 */
export function listingDirectories(files: readonly string[]): readonly string[] {
  const read = (files as { readonly directories?: unknown }).directories;
  if (Array.isArray(read) && read.length > 0) return read as readonly string[];
  const directories = new Set<string>(['']);
  for (const file of files) {
    for (let end = file.lastIndexOf('/'); end > 0; end = file.lastIndexOf('/', end - 1)) {
      const directory = file.slice(0, end);
      if (directories.has(directory)) break;
      directories.add(directory);
    }
  }
  return [...directories];
}

/**
 * Stamps `directories` after a walk that began at `walkStartedAtMs` (epoch ms). Returns
 * `undefined` when a folder or `.gitignore` changed so shortly before the walk that a later
 * change could share its stamp (the file system's clock ticks coarsely): such a listing cannot be
 * proven current later, so it should be taken again next time.
 */
export async function stampListing(
  root: string,
  directories: readonly string[],
  walkStartedAtMs: number,
  signal?: AbortSignal,
): Promise<ListingStamps | undefined> {
  const stamps = await stampsOf(root, directories, undefined, signal);
  const modifiedNs = stamps.flatMap((stamp) =>
    stamp.split('|').flatMap((part) => (part === '-' ? [] : part.split(':').slice(0, 1))),
  );
  if (modifiedNs.some((timeNs) => Number(timeNs) / 1e6 >= walkStartedAtMs - racyWindowMs)) return undefined;
  return { directories, stamps };
}

/** True when every folder of `stamps`, and its `.gitignore`, still has the stamp it had. */
export async function isListingCurrent(
  root: string,
  stamps: ListingStamps,
  signal?: AbortSignal,
): Promise<boolean> {
  const now = await stampsOf(root, stamps.directories, stamps.stamps, signal);
  return now.every((stamp, index) => stamp === stamps.stamps[index]);
}

/**
 * Each folder's stamp and its `.gitignore`'s. With `previous`, a `.gitignore` that was absent is
 * not looked for again: creating one changes its folder's stamp. Synchronous stats in time slices:
 * thousands of them cost less so than as thread-pool round trips.
 */
async function stampsOf(
  root: string,
  directories: readonly string[],
  previous: readonly string[] | undefined,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const stamps: string[] = [];
  await inTimeSlices(
    directories,
    (directory, index) => {
      const absolute = join(root, directory);
      const hadGitignore = previous === undefined || !(previous[index] ?? '').endsWith('|-');
      stamps.push(`${stampOf(absolute)}|${hadGitignore ? stampOf(join(absolute, '.gitignore')) : '-'}`);
    },
    { signal },
  );
  return stamps;
}

function stampOf(path: string): string {
  try {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    return stats === undefined ? '-' : `${stats.mtimeNs}:${stats.ctimeNs}:${stats.size}:${stats.ino}`;
  } catch {
    return '-';
  }
}
