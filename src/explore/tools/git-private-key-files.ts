import type { Sandbox } from '../sandbox/sandbox.js';
import { literalPathspec, runGit } from './run-git.js';
import type { RunGitOptions } from './run-git.js';
import { maxPathspecChars, totalLength } from './git-visible-pathspecs.js';

/**
 * A `BEGIN` armor of `privateKeyArmorSource` as a POSIX extended regular expression, for
 * `git grep -E`.
 */
const beginArmorPattern = '(-----|---- )BEGIN ([A-Z0-9]{1,16} ){0,4}PRIVATE KEY';

/** Options of {@link filesHoldingPrivateKeys}. */
export interface PrivateKeyFilesOptions extends RunGitOptions {
  /** The diff's base: one revision, or a range `A..B` / `A...B` (already checked). */
  readonly base: string;
  /** The changed files to check, repo-relative. */
  readonly files: readonly string[];
  /** Pathspecs covering `files`, used when listing the files one by one would not fit a command line. */
  readonly pathspecs: readonly string[];
}

/**
 * The files among `files` that hold a private key block on either side of a diff: in a
 * revision the diff reads (`base`, both ends of `A..B`, both ends and the merge base of
 * `A...B`) or, for a single `base`, in the working tree. A diff hunk can show
 * a key's middle lines without its `BEGIN` line, so the text of a diff cannot be redacted
 * line by line; these files are left out of it instead. One `git grep` per side, limited to
 * the changed files, so the cost follows the size of the change, not of the repository.
 *
 * @throws {Error} when git fails, or lists more files than `maxOutputBytes` holds.
 */
export async function filesHoldingPrivateKeys(
  sandbox: Sandbox,
  options: PrivateKeyFilesOptions,
): Promise<Set<string>> {
  if (options.files.length === 0) return new Set();
  const { base, files, pathspecs, ...gitOptions } = options;
  const literal = files.map((file) => literalPathspec(file));
  const limit = ['--', ...(totalLength(literal) <= maxPathspecChars ? literal : pathspecs)];
  // No revisions: git grep reads the working tree.
  const sides: (readonly string[])[] = base.includes('...')
    ? [await commitsOf(sandbox, base, gitOptions)]
    : base.includes('..')
      ? [base.split('..')]
      : [[base], []];
  const found = new Set<string>();
  const outputs = await Promise.all(
    sides.map((revisions) =>
      runGit(
        sandbox,
        [
          'grep',
          '-l',
          '-z',
          '--no-color',
          '--no-full-name',
          '--no-recurse-submodules',
          '--no-textconv',
          '-E',
          '-e',
          beginArmorPattern,
          ...revisions,
          ...limit,
        ],
        { ...gitOptions, successExitCodes: [0, 1] },
      ),
    ),
  );
  for (const [index, output] of outputs.entries()) {
    if (output.truncated) {
      throw new Error(
        `git_diff could not check which changed files hold a private key (git grep printed over ${gitOptions.maxOutputBytes} bytes); pass path to narrow the diff.`,
      );
    }
    const isTree = (sides[index]?.length ?? 0) > 0;
    for (const entry of output.stdout.split('\0')) {
      if (entry === '') continue;
      // A tree's files are printed as "<revision>:<path>"; a checked revision holds no ":".
      found.add(isTree ? entry.slice(entry.indexOf(':') + 1) : entry);
    }
  }
  return found;
}

/** The commits `A...B` names (both ends and their merge base), as `git rev-parse` lists them. */
async function commitsOf(sandbox: Sandbox, base: string, options: RunGitOptions): Promise<string[]> {
  const parsed = await runGit(sandbox, ['rev-parse', base, '--'], options);
  return parsed.stdout
    .split('\n')
    .filter((line) => /^\^?[0-9a-f]{40,64}$/.test(line))
    .map((line) => line.replace(/^\^/, ''));
}
