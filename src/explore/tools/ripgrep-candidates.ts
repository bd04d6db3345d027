import { execFile, spawn } from 'node:child_process';
import { SearchStoppedError } from './run-search.js';

/** Options of {@link findRipgrepCandidates}. */
export interface RipgrepCandidatesOptions {
  /** The `rg` executable to run (a name looked up on `PATH`, or a path). */
  readonly command: string;
  /** Absolute real path of the repository root; `files` are relative to it. */
  readonly root: string;
  /** Repo-relative directory the listing walked ('.' for the root); ripgrep walks it too. */
  readonly start: string;
  /** The listed files: only these can be candidates, whatever ripgrep's own walk finds. */
  readonly files: readonly string[];
  /** File and folder names no listing ever shows, skipped by ripgrep to save time. */
  readonly excludedNames: Iterable<string>;
  /** Plain strings: a file is a candidate when it contains any of them. */
  readonly literals: readonly string[];
  /**
   * Read `literals` as regular expressions (ripgrep's own syntax; PCRE2's with `'pcre2'`, which
   * has look-around) rather than plain strings. @default 'fixed-strings'
   */
  readonly syntax?: 'fixed-strings' | 'regex' | 'pcre2';
  /** Globs (ripgrep's `--glob`) a searched file must match, e.g. `*.ts`. @default every file */
  readonly globs?: readonly string[];
  /** Match the literals ignoring case (ripgrep folds case at least as widely as JavaScript's `i` flag does for ASCII). */
  readonly ignoreCase: boolean;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

const syntaxFlags: Readonly<Record<'fixed-strings' | 'regex' | 'pcre2', readonly string[]>> = {
  'fixed-strings': ['--fixed-strings'],
  regex: [],
  pcre2: ['--pcre2'],
};

/**
 * Runs ripgrep over `start` with its own filters off (no ignore files, hidden files and binary
 * files included, no size cap, symlinks not followed, so only regular files are opened: a file
 * swapped for a FIFO cannot block it) and returns the indexes into `files` of those containing
 * any of `literals`, or `null` when ripgrep failed, so the caller searches every file instead.
 * A superset of the listed files the JavaScript search can match, as long as every match
 * contains one of the literals; files ripgrep finds that the listing hides are dropped.
 *
 * @throws {SearchStoppedError} when the time budget passes or the signal aborts; ripgrep is
 *   killed first.
 */
export async function findRipgrepCandidates(options: RipgrepCandidatesOptions): Promise<Set<number> | null> {
  const flags = [
    '--no-config',
    '--files-with-matches',
    '--null',
    '--no-messages',
    '--text',
    '--no-ignore',
    '--hidden',
    ...syntaxFlags[options.syntax ?? 'fixed-strings'],
    options.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...(options.globs ?? []).flatMap((glob) => ['--glob', glob]),
    ...[...options.excludedNames].flatMap((name) => ['--glob', `!${name.replace(/[\\*?[\]{}!]/g, '\\$&')}`]),
    ...options.literals.flatMap((literal) => ['-e', literal]),
    '--',
    options.start === '.' ? './' : `./${options.start}`,
  ];
  const output = await runRipgrep(options.command, flags, {
    cwd: options.root,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  if (output === null) return null;
  const indexOf = new Map(options.files.map((file, index) => [file, index]));
  const candidates = new Set<number>();
  for (const path of output.split('\0')) {
    const index = indexOf.get(path.replace(/^\.\/+/, ''));
    if (index !== undefined) candidates.add(index);
  }
  return candidates;
}

/** Ripgrep's standard output when it exits with 0 (matches) or 1 (none); `null` for any failure. */
function runRipgrep(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly timeoutMs: number; readonly signal?: AbortSignal | undefined },
): Promise<string | null> {
  if (options.signal?.aborted) return Promise.reject(new SearchStoppedError('aborted'));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let stopped: SearchStoppedError | undefined;
    let settled = false;
    const settle = (output: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (stopped !== undefined) reject(stopped);
      else resolve(output);
    };
    const stop = (reason: 'timeout' | 'aborted'): void => {
      stopped ??= new SearchStoppedError(reason);
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = (): void => stop('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    // Not started (a missing or unrunnable executable): the caller searches without it.
    child.once('error', () => settle(null));
    child.once('close', (code) =>
      settle(code === 0 || code === 1 ? Buffer.concat(chunks).toString('utf8') : null),
    );
  });
}

const versions = new Map<string, Promise<boolean>>();

/**
 * Whether `command` runs as ripgrep (`--version` prints `ripgrep ...`), asked once per
 * command and process. Never downloads anything: a missing ripgrep means the built-in search.
 */
export function isRipgrepAvailable(command: string): Promise<boolean> {
  let known = versions.get(command);
  if (known === undefined) {
    known = new Promise<boolean>((resolve) => {
      execFile(command, ['--version'], { timeout: 5_000, windowsHide: true }, (error, stdout) => {
        resolve(error === null && String(stdout).startsWith('ripgrep '));
      });
    });
    versions.set(command, known);
  }
  return known;
}
