import { execFile } from 'node:child_process';
import type { ExecFileException } from 'node:child_process';
import type { Sandbox } from '../sandbox/sandbox.js';

/** Options of {@link runGit}. */
export interface RunGitOptions {
  readonly timeoutMs: number;
  readonly maxBufferBytes: number;
  readonly signal?: AbortSignal | undefined;
  /** The tool name, for messages. */
  readonly toolName: string;
}

/**
 * Runs one read-only git command in the sandbox root with `execFile` (never a shell), a
 * timeout and an output cap. Config that could run programs or write is turned off
 * (`core.fsmonitor`, optional index locks, prompts). Resolves with stdout; rejects with
 * an Error whose message tells the model what went wrong and what to do.
 */
export function runGit(sandbox: Sandbox, args: readonly string[], options: RunGitOptions): Promise<string> {
  const fullArgs = ['-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', '--no-pager', ...args];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      fullArgs,
      {
        cwd: sandbox.root,
        timeout: options.timeoutMs,
        maxBuffer: options.maxBufferBytes,
        encoding: 'utf8',
        windowsHide: true,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: '0',
          GIT_OPTIONAL_LOCKS: '0',
          LC_ALL: 'C',
          GIT_PAGER: 'cat',
        },
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
      (error, stdout, stderr) => {
        if (error === null) resolve(stdout);
        else reject(new Error(describeFailure(error, stderr, sandbox, options), { cause: error }));
      },
    );
  });
}

function describeFailure(
  error: ExecFileException,
  stderr: string,
  sandbox: Sandbox,
  options: RunGitOptions,
): string {
  const detail = stderr.trim().split('\n')[0] ?? '';
  if (error.code === 'ENOENT') return `${options.toolName} needs git, which is not installed or not on PATH.`;
  if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
    return `git output passed ${Math.round(options.maxBufferBytes / 1024 / 1024)} MiB; narrow it with path.`;
  }
  if (error.name === 'AbortError') return `${options.toolName} was aborted.`;
  if (error.killed === true) {
    return `git took longer than ${options.timeoutMs / 1000} s and was stopped; narrow it with path or a smaller n.`;
  }
  if (/not a git repository/i.test(stderr)) {
    return (
      `The repository root "${sandbox.root}" is not inside a git repository, so ${options.toolName} cannot run. ` +
      'Use list_files, read_file and search_text instead.'
    );
  }
  if (/does not have any commits yet/i.test(stderr)) return 'The git repository has no commits yet.';
  if (/unknown revision|bad revision|ambiguous argument|invalid object name/i.test(stderr)) {
    return `git does not know that revision (${detail}); pass a commit hash, branch or tag, e.g. "HEAD~1" or "main".`;
  }
  return `git failed: ${detail || error.message}`;
}

/**
 * Git pathspecs that hide the sandbox's denied secret files from git output, so a
 * tracked `.env` never shows up in a diff.
 */
export function denyPathspecs(deny: readonly string[]): string[] {
  return deny.map((pattern) => `:(exclude,glob)${pattern.includes('/') ? pattern : `**/${pattern}`}`);
}
