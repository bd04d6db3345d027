import { setTimeout as delay } from 'node:timers/promises';
import { describeThrown } from '../../../errors/describe-value.js';
import { startProcessGroup } from './process-group.js';
import type { ProcessGroup } from './process-group.js';

/** The most output kept from stdout, and from stderr; past it the command's group is stopped. */
export const maxOutputBytes = 16 * 1024 * 1024;

/** How long a group asked to stop (SIGTERM) has before it is killed (SIGKILL). */
const killGraceMs = 2_000;
/** How often a stopping group is checked for members still alive. */
const pollMs = 50;
/** How long output still in the pipes is awaited once the group is gone. */
const drainMs = 500;

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Characters of output kept, from the end. */
  readonly maxOutputChars: number;
  readonly signal?: AbortSignal | undefined;
}

type Ending =
  | { readonly type: 'exited'; readonly exitCode: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly type: 'timeout' }
  | { readonly type: 'aborted' }
  | { readonly type: 'overflow' }
  | { readonly type: 'spawn_error'; readonly error: NodeJS.ErrnoException };

/**
 * Runs a command in its own process group and resolves with `$ command args`, its exit code and
 * the tail of its output. On timeout, abort or more than {@link maxOutputBytes} of output, the
 * whole group gets SIGTERM, then SIGKILL after a grace of 2 s, and the call settles then, whether
 * or not the processes cooperate. When the command exits by itself, processes it left in its
 * group are stopped the same way before the call settles.
 *
 * @throws (rejects) `signal.reason` on abort; an `Error` saying what happened on a timeout, too
 *   much output, a command that was not found or could not start, or a command killed by a
 *   signal it was not sent by this call.
 */
export function runCommand(options: RunCommandOptions): Promise<string> {
  const { command, args, signal } = options;
  if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    let group: ProcessGroup;
    try {
      group = startProcessGroup(command, args, { cwd: options.cwd, env: options.env });
    } catch (error) {
      reject(new Error(`"${command}" could not run: ${describeThrown(error)}`, { cause: error }));
      return;
    }
    const { child } = group;
    const stdout = new OutputBuffer();
    const stderr = new OutputBuffer();
    const closed = new Promise<void>((resolveClosed) => child.once('close', () => resolveClosed()));
    let ending: Ending | undefined;

    const end = (how: Ending): void => {
      if (ending !== undefined) return;
      ending = how;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void stopGroup(group)
        .then(() => waitAtMost(closed, drainMs))
        .then(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          const output = combinedOutput(stdout.text(), stderr.text(), options.maxOutputChars);
          const outcome = describeEnding(how, options, output);
          if (outcome.ok) resolve(outcome.text);
          else reject(outcome.error);
        })
        .catch(reject);
    };
    const timer = setTimeout(() => end({ type: 'timeout' }), options.timeoutMs);
    const onAbort = (): void => end({ type: 'aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (!stdout.add(chunk)) end({ type: 'overflow' });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (!stderr.add(chunk)) end({ type: 'overflow' });
    });
    child.on('exit', (exitCode, exitSignal) => end({ type: 'exited', exitCode, signal: exitSignal }));
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Without a pid the command never started; later errors (a failed kill) change nothing.
      if (child.pid === undefined) end({ type: 'spawn_error', error });
    });
  });
}

/** SIGTERM to the group, then SIGKILL to whatever is left after the grace; returns at once for an empty group. */
async function stopGroup(group: ProcessGroup): Promise<void> {
  if (!group.isAlive()) return;
  group.terminate();
  const deadline = Date.now() + killGraceMs;
  while (Date.now() < deadline) {
    await delay(pollMs);
    if (!group.isAlive()) return;
  }
  group.kill();
}

async function waitAtMost(promise: Promise<void>, milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, milliseconds)))]);
  clearTimeout(timer);
}

class OutputBuffer {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;

  /** Keeps `chunk`; false once the total would pass {@link maxOutputBytes} (the chunk is dropped). */
  add(chunk: Buffer): boolean {
    if (this.#bytes + chunk.length > maxOutputBytes) return false;
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    return true;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

function combinedOutput(stdout: string, stderr: string, maxOutputChars: number): string {
  const output = `${stdout}${stderr === '' ? '' : `\n[stderr]\n${stderr}`}`.trim();
  return output.length > maxOutputChars
    ? `[output cut: first ${output.length - maxOutputChars} characters left out]\n${output.slice(-maxOutputChars)}`
    : output;
}

function describeEnding(
  how: Ending,
  options: RunCommandOptions,
  output: string,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: unknown } {
  const { command } = options;
  const soFar = output === '' ? '' : `; its output so far:\n${output}`;
  switch (how.type) {
    case 'aborted':
      return { ok: false, error: options.signal?.reason };
    case 'timeout':
      return {
        ok: false,
        error: new Error(
          `"${command}" was stopped after ${options.timeoutMs} ms; narrow it with a path${soFar}`,
        ),
      };
    case 'overflow':
      return {
        ok: false,
        error: new Error(
          `"${command}" printed more than ${maxOutputBytes} bytes (16 MiB) and was stopped before it finished; ` +
            'narrow it with a path or a marker.',
        ),
      };
    case 'spawn_error':
      return {
        ok: false,
        error:
          how.error.code === 'ENOENT'
            ? new Error(`Command "${command}" was not found; check the configured command.`)
            : new Error(`"${command}" could not run: ${how.error.message}`, { cause: how.error }),
      };
    case 'exited':
      if (how.signal !== null)
        return {
          ok: false,
          error: new Error(
            `"${command}" was killed by ${how.signal} before it finished (out of memory, or stopped from ` +
              `outside)${soFar}`,
          ),
        };
      return {
        ok: true,
        text: `$ ${[command, ...options.args].join(' ')}\nexit code ${how.exitCode ?? 0}\n${output}`,
      };
  }
}
