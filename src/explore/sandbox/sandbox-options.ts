import type { SandboxLimits } from './sandbox-defaults.js';

/** Options of {@link Sandbox}. */
export interface SandboxOptions {
  /** The repository root; every path is resolved inside it. */
  readonly root: string;
  /** Globs; when given, only matching files are listed, searched and read. */
  readonly include?: readonly string[];
  /** Extra globs to hide from listings, searches and reads. */
  readonly exclude?: readonly string[];
  /**
   * Secret-file globs that can never be read or listed, matched case-insensitively against a
   * path and each of its parent directories. Replaces the defaults when given: to let one
   * file through, pass `defaultDenyPatterns` without its pattern.
   * @default `defaultDenyPatterns`: environment files, private keys, SSH, GnuPG, password files,
   *   shell histories, git-hosting, registry, cloud and infrastructure credentials, `.git`
   */
  readonly deny?: readonly string[];
  /** Size and count caps. @default { maxFileBytes: 2 MiB, maxFiles: 50_000 } */
  readonly limits?: Partial<SandboxLimits>;
  /**
   * Let git run on a repository whose git data lies outside the folder holding `.git`: a linked
   * worktree or a submodule checkout (whose `.git` is a file), `--separate-git-dir`, or
   * alternates borrowing another repository's objects. Off by default: in an untrusted
   * repository a `.git` file, symlink, `commondir` or alternates file can point git at any
   * repository on the machine, whose files `git_diff` would then print.
   * @default false
   */
  readonly allowExternalGitDir?: boolean;
}

/** Options of {@link Sandbox.listFiles}. */
export interface ListFilesOptions {
  /** Repo-relative directory (or file) to list. @default '.' */
  readonly path?: string;
  /** Glob over the repo-relative path (or the path below `path`); without `/` it matches basenames. */
  readonly pattern?: string;
  readonly signal?: AbortSignal;
}

/** What {@link Sandbox.stat} returns. */
export interface FileStats {
  readonly size: number;
  readonly mtimeMs: number;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
}
