import { lstat, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { readRegularFile } from './read-regular-file.js';
import { isInsideDirectory } from './sandbox-paths.js';

/**
 * The repository git is run on for a sandbox root, named explicitly (`--git-dir`,
 * `--work-tree`) so that nothing in the repository can relocate either: not `core.worktree`
 * in its config, not `core.bare`, not a `.git` file.
 */
export interface GitRepository {
  /** Absolute path of the git directory. */
  readonly gitDir: string;
  /** Absolute real path of the work tree: the root or the folder above it holding `.git`. */
  readonly workTree: string;
  /**
   * True when the work tree or git directory is owned by another user. Git's own ownership
   * check (`safe.directory`) only runs when git finds the repository itself, so the caller
   * must let it run first.
   */
  readonly ownedByAnotherUser: boolean;
}

/** What {@link findGitRepository} found. */
export type GitRepositoryLookup =
  | { readonly type: 'found'; readonly repository: GitRepository }
  | { readonly type: 'none' }
  /**
   * The git data lies outside the work tree: a `.git` file or symlink (a linked worktree, a
   * submodule, `--separate-git-dir`, or a hostile repository), a `commondir`, or objects, refs
   * or alternates leading elsewhere. `what` names the first such link.
   */
  | { readonly type: 'external'; readonly what: string; readonly target: string; readonly workTree: string };

/** Options of {@link findGitRepository}. */
export interface FindGitRepositoryOptions {
  /** Accept git data outside the work tree. @default false */
  readonly allowExternalGitDir?: boolean;
}

/** The git data files read here (`.git` files, `commondir`, alternates) are tiny; larger ones are refused. */
const maxGitPointerBytes = 64 * 1024;

/**
 * Finds the repository of `root` (a real, absolute directory) the way git does — the nearest
 * `.git` at or above it that is a git directory — and checks that git's data lies inside the
 * folder holding that `.git`: the git directory itself, its `commondir`, `objects`, `refs`,
 * `packed-refs` and every alternate object directory (real paths, so symlinks count). A
 * repository whose data lies elsewhere could make `git_diff` print another repository's files.
 */
export async function findGitRepository(
  root: string,
  options: FindGitRepositoryOptions = {},
): Promise<GitRepositoryLookup> {
  for (let directory = root; ; directory = dirname(directory)) {
    const dotGit = join(directory, '.git');
    const entry = await lstat(dotGit).catch(() => undefined);
    if (entry?.isDirectory() === true) {
      if (await isGitDirectory(dotGit)) return checked(directory, dotGit, entry.uid, options);
    } else if (entry !== undefined) {
      // A .git file (`gitdir: <path>`) or symlink: git follows it wherever it leads.
      const gitDir = entry.isSymbolicLink() ? dotGit : await readGitFile(dotGit);
      if (gitDir === undefined)
        return { type: 'external', what: '.git', target: dotGit, workTree: directory };
      return checked(directory, gitDir, entry.uid, options);
    }
    if (dirname(directory) === directory) return { type: 'none' };
  }
}

async function checked(
  workTree: string,
  gitDir: string,
  dotGitOwner: number,
  options: FindGitRepositoryOptions,
): Promise<GitRepositoryLookup> {
  const [workTreeStats, gitDirStats] = await Promise.all([
    stat(workTree),
    stat(gitDir).catch(() => undefined),
  ]);
  const uid = process.getuid?.();
  const ownedByAnotherUser =
    uid !== undefined &&
    [workTreeStats.uid, dotGitOwner, gitDirStats?.uid ?? uid].some((owner) => owner !== uid);
  const repository = { gitDir, workTree, ownedByAnotherUser };
  if (options.allowExternalGitDir === true) return { type: 'found', repository };
  for (const [what, target] of await gitDataPaths(gitDir)) {
    const real = await realpath(target).catch(() => undefined);
    // A missing part is git's to report; one that exists must be inside the work tree.
    if (real !== undefined && !isInsideDirectory(workTree, real)) {
      return { type: 'external', what, target: real, workTree };
    }
  }
  return { type: 'found', repository };
}

/** The paths of git's data for `gitDir`, each with the name to report when it lies outside. */
async function gitDataPaths(gitDir: string): Promise<[string, string][]> {
  const paths: [string, string][] = [['.git', gitDir]];
  const commonDirectory = await readPointer(join(gitDir, 'commondir'));
  const common = commonDirectory === undefined ? gitDir : resolvePath(gitDir, commonDirectory);
  if (commonDirectory !== undefined) paths.push(['.git/commondir', common]);
  paths.push(['.git/objects', join(common, 'objects')], ['.git/refs', join(common, 'refs')]);
  paths.push(['.git/packed-refs', join(common, 'packed-refs')]);
  const alternates = await readPointer(join(common, 'objects', 'info', 'alternates'));
  for (const line of alternates?.split('\n') ?? []) {
    const alternate = line.trim();
    if (alternate === '' || alternate.startsWith('#')) continue;
    paths.push(['.git/objects/info/alternates', resolvePath(common, 'objects', alternate)]);
  }
  return paths;
}

/** What git checks before taking a directory as a repository: `HEAD`, `objects` and `refs` exist. */
async function isGitDirectory(directory: string): Promise<boolean> {
  const parts = await Promise.all(
    ['HEAD', 'objects', 'refs'].map((part) =>
      lstat(join(directory, part)).then(
        () => true,
        () => false,
      ),
    ),
  );
  return parts.every(Boolean);
}

/** The git directory a `.git` file names (`gitdir: <path>`, relative to the file's folder). */
async function readGitFile(path: string): Promise<string | undefined> {
  const text = await readPointer(path);
  const match = /^gitdir: (.+)$/.exec(text ?? '');
  if (match?.[1] === undefined) return undefined;
  return isAbsolute(match[1]) ? match[1] : resolvePath(dirname(path), match[1]);
}

/** The first line-trimmed text of a small regular file (a FIFO or device counts as absent). */
async function readPointer(path: string): Promise<string | undefined> {
  const read = await readRegularFile(path, { maxBytes: maxGitPointerBytes });
  return read.type === 'file' ? read.bytes.toString('utf8').trimEnd() : undefined;
}
