/**
 * The part of the exploration `Sandbox` the code index uses. The real `Sandbox` satisfies it;
 * tests and embedders may pass anything with the same shape.
 */
export interface CodeIndexSandbox {
  /** Real path of the repository root. */
  readonly root: string;
  /** The sandbox's caps; the index skips files over `maxFileBytes`. */
  readonly limits?: { readonly maxFileBytes: number };
  /** Repo-relative path to absolute path; throws when the path escapes the root or is denied. */
  resolve(path: string): string;
  /** Absolute path to repo-relative, `/`-separated ('.' for the root). @default relative to `root` */
  relative?(absolutePath: string): string;
  /**
   * What decides `listFiles()` besides the files and `.gitignore` files on disk: with it, the
   * index stores its listing in its cache, and a later process with the same identity reuses it
   * while the folders' stamps hold rather than walking. @default none: every process walks
   */
  readonly listingIdentity?: string;
  /** Visible repo files, repo-relative, sorted, `/`-separated. */
  listFiles(options?: { readonly path?: string; readonly signal?: AbortSignal }): Promise<string[]>;
  /** Reads a text file; throws for binary or too-large files. */
  readText(
    path: string,
    options?: { readonly maxBytes?: number },
  ): Promise<{ text: string; size: number; mtimeMs: number; path: string }>;
  /**
   * `readText` on the calling thread, same checks and errors: the index reads many small files
   * with it, each faster than an asynchronous read's round trip through the thread pool.
   * @default none: the index reads with `readText`
   */
  readTextSync?(
    path: string,
    options?: { readonly maxBytes?: number },
  ): { text: string; size: number; mtimeMs: number; path: string };
  /** Size, mtime and type of a repo path. */
  stat(path: string): Promise<{ size: number; mtimeMs: number; isFile: boolean; isDirectory: boolean }>;
}
