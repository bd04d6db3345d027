import type { Sandbox } from '../sandbox/sandbox.js';
import { runGit } from './run-git.js';
import type { RunGitOptions } from './run-git.js';

/** Characters of extra pathspecs passed on the command line (Windows allows about 32k in all). */
export const maxPathspecChars = 24_000;

/** What {@link visiblePathspecs} decided. */
export type VisiblePathspecs =
  | {
      readonly type: 'pathspecs';
      readonly pathspecs: readonly string[];
      /** The changed files the sandbox shows, repo-relative. */
      readonly files: readonly string[];
    }
  | { readonly type: 'nothing_visible' };

/**
 * Limits a diff to the files the sandbox shows. Lists the changed paths once
 * (`git diff --name-only -z --no-renames`, both sides of a rename), asks
 * `sandbox.isVisible` about each (its `include`/`exclude` globs, secrets, build output and
 * `.gitignore`d files) and returns pathspecs for the diff: `given` plus a literal exclude
 * per hidden file, or, when those would not fit on a command line, the visible files one
 * by one.
 *
 * @param diffArguments - the diff's options and revisions, before `--`.
 * @param given - the diff's own pathspecs (the path and the deny excludes).
 * @throws {Error} when the changed files are too many to list on a command line.
 */
export async function visiblePathspecs(
  sandbox: Sandbox,
  diffArguments: readonly string[],
  given: readonly string[],
  options: RunGitOptions,
): Promise<VisiblePathspecs> {
  const names = await runGit(
    sandbox,
    ['diff', '--name-only', '-z', '--no-renames', ...diffArguments, '--', ...given],
    {
      ...options,
      maxOutputBytes: Math.max(options.maxOutputBytes, 1024 * 1024),
    },
  );
  const tooMany = new Error(
    `The diff touches too many files to filter by the include/exclude settings; pass path to narrow it to a directory.`,
  );
  if (names.truncated) throw tooMany;
  const changed = names.stdout.split('\0').filter((name) => name !== '');
  const visible: string[] = [];
  const hidden: string[] = [];
  for (const name of changed) (sandbox.isVisible(name) ? visible : hidden).push(name);
  if (hidden.length === 0) return { type: 'pathspecs', pathspecs: given, files: visible };
  if (visible.length === 0) return { type: 'nothing_visible' };
  const excludes = hidden.map((name) => `:(exclude,literal)${name}`);
  if (totalLength(excludes) <= maxPathspecChars)
    return { type: 'pathspecs', pathspecs: [...given, ...excludes], files: visible };
  const includes = visible.map((name) => `:(literal)${name}`);
  if (totalLength(includes) <= maxPathspecChars) {
    // The given path is dropped: as a positive pathspec it would re-admit every hidden file under it.
    return {
      type: 'pathspecs',
      pathspecs: [...includes, ...given.filter((spec) => spec.startsWith(':(exclude'))],
      files: visible,
    };
  }
  throw tooMany;
}

/** Characters `pathspecs` take on a command line. */
export function totalLength(pathspecs: readonly string[]): number {
  return pathspecs.reduce((sum, spec) => sum + spec.length + 1, 0);
}
