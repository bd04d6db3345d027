import { spawn } from 'node:child_process';
import type { GitRepository } from '../sandbox/git-repository.js';

/** Options of {@link spawnGit}. */
export interface SpawnGitOptions {
  /** Milliseconds before git is killed. */
  readonly timeoutMs: number;
  /** Bytes of stdout kept; once reached, git is killed and the result is flagged `truncated`. */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal | undefined;
  /**
   * The repository to run on, passed as `--git-dir` and `--work-tree` (which override
   * `core.worktree`, `core.bare` and discovery). @default git discovers it from `cwd`
   */
  readonly repository?: GitRepository | undefined;
}

/** How one git run ended. */
export type GitProcessResult =
  | {
      readonly type: 'exited';
      readonly stdout: string;
      readonly stderr: string;
      /** The exit code; null when git was killed by a signal we did not send. */
      readonly exitCode: number | null;
      /** True when git was stopped because stdout reached `maxOutputBytes`; `stdout` is its first bytes. */
      readonly truncated: boolean;
    }
  | { readonly type: 'timeout' }
  | { readonly type: 'aborted' }
  | { readonly type: 'spawn_error'; readonly error: NodeJS.ErrnoException };

/**
 * Options given before every subcommand: no pager, no fsmonitor program, no transport at
 * all (a partial clone would otherwise lazily fetch missing objects, running a remote's
 * `uploadpack` or an `ext::` command), no signature verification program.
 */
export const hardenedGitOptions: readonly string[] = Object.freeze([
  '--no-pager',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.quotepath=off',
  '-c',
  'protocol.allow=never',
  '-c',
  'log.showSignature=false',
]);

const maxStderrBytes = 64 * 1024;

/**
 * The environment git runs with: the caller's, minus every `GIT_*` variable (a stray
 * `GIT_DIR`, `GIT_EXTERNAL_DIFF` or `GIT_CONFIG_PARAMETERS` would redirect or extend git),
 * plus no system config, no prompts, no optional locks, no lazy fetch and a fixed locale.
 */
export function hardenedGitEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // GIT_EXEC_PATH only says where git's own programs are installed.
    if (!name.toUpperCase().startsWith('GIT_') || name === 'GIT_EXEC_PATH') environment[name] = value;
  }
  return {
    ...environment,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_LAZY_FETCH: '1',
    GIT_PAGER: 'cat',
    LC_ALL: 'C',
  };
}

/**
 * Runs `git <hardenedGitOptions> [--git-dir --work-tree] <args>` in `cwd` with `spawn` (never a shell), streaming
 * stdout and killing git once `maxOutputBytes` are read, so a huge diff costs a bounded
 * amount of memory and time. Never rejects: every outcome is a {@link GitProcessResult}.
 */
export function spawnGit(
  cwd: string,
  args: readonly string[],
  options: SpawnGitOptions,
): Promise<GitProcessResult> {
  return new Promise((resolve) => {
    if (options.signal?.aborted === true) {
      resolve({ type: 'aborted' });
      return;
    }
    const location =
      options.repository === undefined
        ? []
        : [`--git-dir=${options.repository.gitDir}`, `--work-tree=${options.repository.workTree}`];
    const child = spawn('git', [...hardenedGitOptions, ...location, ...args], {
      cwd,
      env: hardenedGitEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let truncated = false;
    let settled = false;
    const finish = (result: GitProcessResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const stop = (result: GitProcessResult): void => {
      child.kill('SIGKILL');
      finish(result);
    };
    const onAbort = (): void => stop({ type: 'aborted' });
    const timer = setTimeout(() => stop({ type: 'timeout' }), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const room = options.maxOutputBytes - stdoutBytes;
      if (chunk.length >= room) {
        stdout.push(chunk.subarray(0, room));
        stdoutBytes += room;
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      stdout.push(chunk);
      stdoutBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes >= maxStderrBytes) return;
      stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on('error', (error: NodeJS.ErrnoException) => finish({ type: 'spawn_error', error }));
    child.on('close', (exitCode) => {
      finish({
        type: 'exited',
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        exitCode,
        truncated,
      });
    });
  });
}
