/**
 * Repo-relative, sorted paths; `truncated` is true when the walk stopped at `maxFiles`;
 * `directories` names the repo-relative directories whose entries were read ('' for the
 * root; empty when a single file was listed), so a caller can tell when a listing is stale.
 */
export type FileListing = string[] & { readonly truncated: boolean; readonly directories: readonly string[] };

/** `files` as a {@link FileListing}: `truncated` and `directories` are non-enumerable, so it still compares equal to a plain array. */
export function fileListing(
  files: string[],
  truncated: boolean,
  directories: readonly string[],
): FileListing {
  return Object.defineProperties(files, {
    truncated: { value: truncated, enumerable: false },
    directories: { value: directories, enumerable: false },
  }) as FileListing;
}
