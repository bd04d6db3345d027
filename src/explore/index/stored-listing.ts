import { fileListing } from '../sandbox/file-listing.js';
import { isListingCurrent } from '../sandbox/listing-stamps.js';
import type { ListingChanges } from '../sandbox/listing-changes.js';
import type { StoredListing } from './cache/repository-snapshot.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';

/**
 * The listing an earlier process stored, as a `FileListing`, when it was stored under this
 * sandbox's `listingIdentity` and every folder's stamp still holds; `undefined` otherwise (walk).
 */
export async function reusableListing(
  sandbox: CodeIndexSandbox,
  stored: StoredListing | undefined,
  signal: AbortSignal | undefined,
): Promise<readonly string[] | undefined> {
  if (stored === undefined || sandbox.listingIdentity === undefined) return undefined;
  if (stored.identity !== sandbox.listingIdentity) return undefined;
  const current = await isListingCurrent(sandbox.root, stored, signal).catch(() => false);
  return current ? fileListing([...stored.files], false, stored.directories) : undefined;
}

/**
 * `files` with its folders' stamps, to store for a later process; `undefined` without a
 * `listingIdentity`, for a listing cut at `maxFiles`, or when a folder changed about the time of the walk.
 */
export async function listingToStore(
  sandbox: CodeIndexSandbox,
  files: readonly string[],
  tracked: ListingChanges | undefined,
): Promise<StoredListing | undefined> {
  const identity = sandbox.listingIdentity;
  if (identity === undefined || tracked === undefined) return undefined;
  if ((files as { readonly truncated?: boolean }).truncated === true) return undefined;
  const stamps = await tracked.stamps();
  return stamps === undefined ? undefined : { identity, files, ...stamps };
}
