import type { Sandbox } from '../sandbox/sandbox.js';
import { gitConfigOverrides } from './git-config-guard.js';
import { spawnGit } from './git-process.js';
import type { GitProcessResult } from './git-process.js';

/** Options of {@link runGit}. */
export interface RunGitOptions {
  readonly timeoutMs: number;
  /** Bytes of stdout read; past this git is stopped and the result is flagged `truncated`. */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal | undefined;
  /** The tool name, for messages. */
  readonly toolName: string;
  /** Exit codes that mean success, such as 1 for a `git grep` that found nothing. @default [0] */
  readonly successExitCodes?: readonly number[];
}

/** What {@link runGit} resolves with. */
export interface GitOutput {
  readonly stdout: string;
  /** True when git was stopped at `maxOutputBytes`; `stdout` holds what came before. */
  readonly truncated: boolean;
}

/**
 * Runs one read-only git command in the sandbox root with `spawn` (never a shell), a
 * timeout and an output cap that stops git rather than failing, on the repository the sandbox
 * names (`Sandbox.gitRepository`: `--git-dir` and `--work-tree` explicit, so `core.worktree`
 * or a `.git` file cannot point git elsewhere). Config that could run a
 * program is overridden first (filters, fsmonitor, transports; see `gitConfigOverrides`),
 * system config and the caller's `GIT_*` variables are ignored. Rejects with an Error whose
 * message tells the model what went wrong and what to do.
 */
export async function runGit(
  sandbox: Sandbox,
  args: readonly string[],
  options: RunGitOptions,
): Promise<GitOutput> {
  const repository = await sandbox.gitRepository();
  if (repository === undefined) throw new Error(notARepository(sandbox, options));
  if (repository.ownedByAnotherUser) {
    // Naming the repository skips git's ownership check (safe.directory): let git find it once to run it.
    const probe = await spawnGit(repository.workTree, ['rev-parse', '--git-dir'], {
      ...options,
      maxOutputBytes: 64 * 1024,
    });
    if (probe.type !== 'exited' || probe.exitCode !== 0)
      throw new Error(describeFailure(probe, sandbox, options));
  }
  const located = { ...options, repository };
  const overrides = await gitConfigOverrides(sandbox.root, located);
  if (overrides.type === 'failed') throw new Error(describeFailure(overrides.result, sandbox, options));
  const result = await spawnGit(sandbox.root, [...overrides.options, ...args], located);
  const successExitCodes = options.successExitCodes ?? [0];
  if (
    result.type === 'exited' &&
    ((result.exitCode !== null && successExitCodes.includes(result.exitCode)) || result.truncated)
  ) {
    return { stdout: result.stdout, truncated: result.truncated };
  }
  throw new Error(describeFailure(result, sandbox, options));
}

function notARepository(sandbox: Sandbox, options: RunGitOptions): string {
  return (
    `The repository root "${sandbox.root}" is not inside a git repository, so ${options.toolName} cannot run. ` +
    'Use list_files, read_file and search_text instead.'
  );
}

function describeFailure(result: GitProcessResult, sandbox: Sandbox, options: RunGitOptions): string {
  if (result.type === 'spawn_error') {
    return result.error.code === 'ENOENT'
      ? `${options.toolName} needs git, which is not installed or not on PATH.`
      : `git could not be started: ${result.error.message}`;
  }
  if (result.type === 'aborted') return `${options.toolName} was aborted.`;
  if (result.type === 'timeout') {
    return `git took longer than ${options.timeoutMs / 1000} s and was stopped; narrow it with path or a smaller n.`;
  }
  const { stderr } = result;
  const detail = stderr.trim().split('\n')[0] ?? '';
  if (/not a git repository/i.test(stderr)) return notARepository(sandbox, options);
  if (/dubious ownership/i.test(stderr)) {
    return (
      `git refuses the repository at "${sandbox.root}" because another user owns it (safe.directory), so ` +
      `${options.toolName} cannot run. Use list_files, read_file and search_text instead.`
    );
  }
  if (/does not have any commits yet/i.test(stderr)) return 'The git repository has no commits yet.';
  if (/unknown revision|bad revision|ambiguous argument|invalid object name/i.test(stderr)) {
    return `git does not know that revision (${detail}); pass a commit hash, branch or tag, e.g. "HEAD~1" or "main".`;
  }
  return `git failed: ${detail || `exit code ${String(result.exitCode)}`}`;
}

/**
 * A repo-relative path as a git pathspec taken literally: `:(literal)` turns off glob characters
 * and, because the magic prefix is already given, any magic the path itself spells, so a path
 * such as `:(top)`, `:(literal)../x` or `:(top,glob)**` cannot reach files outside a subfolder root.
 */
export function literalPathspec(path: string): string {
  return `:(literal)${path}`;
}

/**
 * Git pathspecs that hide the sandbox's denied secret files from git output, so a tracked
 * `.env` never shows up in a diff: each pattern is excluded case-insensitively at any depth,
 * both as a file and as a directory (`.env/production`, `keys/ID_RSA`, `SERVER.PEM`).
 */
export function denyPathspecs(deny: readonly string[]): string[] {
  return deny.flatMap((pattern) => {
    const glob = pattern.replace(/^(\.\/)+/, '').replace(/^\/+/, '');
    return [`:(exclude,glob,icase)**/${glob}`, `:(exclude,glob,icase)**/${glob}/**`];
  });
}
