import { execFileSync, spawn } from 'node:child_process';
import { serviceUnavailable } from './service-availability.js';

/**
 * A process in a pseudo-terminal, through util-linux `script(1)` (Debian's essential `bsdutils`):
 * no native module, no install script. Its stdout and stderr both reach the terminal, so `output`
 * holds both, with the terminal's `\r\n` line ends; `write('\x03')` types Ctrl-C, which the terminal
 * turns into SIGINT for the process.
 */
export interface PtyProcess {
  /** Everything the terminal showed so far. */
  output(): string;
  /** Types into the terminal. */
  write(text: string): void;
  /** Resolves once `pattern` has appeared in the output; rejects after `timeoutMs`. */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<void>;
  /** The exit code (script passes on the child's, with `-e`); rejects after the run's timeout. */
  readonly exited: Promise<number>;
}

/** Options of {@link spawnInPty}. */
export interface PtyOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The terminal's width. @default 100 */
  readonly columns?: number;
  /** A shell redirect appended to the command, e.g. `> out.json` to take stdout off the terminal. */
  readonly redirect?: string;
  /** The whole run is killed after this. @default 30_000 */
  readonly timeoutMs?: number;
}

/** Why no pseudo-terminal can be had here, or `undefined` when `script` works. */
export function ptyUnavailable(): string | undefined {
  try {
    execFileSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore', timeout: 10_000 });
    return undefined;
  } catch (error) {
    return serviceUnavailable(
      'script(1) for a pseudo-terminal',
      error instanceof Error ? error.message : String(error),
    );
  }
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Runs `command` in a new pseudo-terminal `columns` wide. */
export function spawnInPty(command: readonly string[], options: PtyOptions): PtyProcess {
  const columns = options.columns ?? 100;
  const line = `stty cols ${columns} rows 40; exec ${command.map(shellQuote).join(' ')}${options.redirect === undefined ? '' : ` ${options.redirect}`}`;
  const child = spawn('script', ['-qfec', line, '/dev/null'], {
    env: options.env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const onData = (data: Buffer): void => {
    output += data.toString('utf8');
    for (const waiter of waiters) waiter();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const exited = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the process in the pty did not exit within ${timeoutMs} ms; output:\n${output}`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      child.stdin.end();
      resolve(code ?? (signal === null ? 1 : 128));
    });
  });
  exited.catch(() => undefined);
  return {
    output: () => output,
    write: (text) => void child.stdin.write(text),
    waitFor: (pattern, waitMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const matches = (): boolean =>
          typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output);
        if (matches()) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${String(pattern)} did not appear within ${waitMs} ms; output:\n${output}`));
        }, waitMs);
        const check = (): void => {
          if (!matches()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      }),
    exited,
  };
}

/** The output without color and cursor codes, with `\n` line ends: what a person reads. */
export function visibleText(output: string): string {
  // eslint-disable-next-line no-control-regex
  return output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n/g, '\n');
}

/** Lines as they end up on screen: each `\r` (a redrawn status line) keeps only what follows it. */
export function screenLines(output: string): string[] {
  return visibleText(output)
    .split('\n')
    .map((line) => line.slice(line.lastIndexOf('\r') + 1));
}
