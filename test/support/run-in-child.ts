import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The public `tool-orchestrator/explore` entry, as a URL a child script can import (through tsx). */
export const exploreEntryUrl = pathToFileURL(join(projectRoot, 'src/explore/index.ts')).href;

/** How a child ended: on its own (with its exit code) or killed at the deadline. */
export interface ChildOutcome {
  /** True when the child was still running at the deadline and was killed. */
  readonly timedOut: boolean;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Milliseconds from spawn to exit (or to the kill). */
  readonly elapsedMs: number;
}

/** Options of {@link runScriptInChild}. */
export interface RunScriptOptions {
  /** The child is killed (SIGKILL) after this many milliseconds. */
  readonly deadlineMs: number;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Caps the child's data memory (`ulimit -d`, POSIX only; `-v` would also count the address
   * space WebAssembly reserves), so a runaway read (of `/dev/zero`) fails the child instead of
   * eating the machine's memory.
   */
  readonly memoryLimitMb?: number;
}

/**
 * Runs a TypeScript ES module in a fresh `node --import tsx` process and waits for it to exit
 * on its own, killing it at the deadline: a test of a hang can then fail without freezing the
 * suite. The child must exit by itself (no `process.exit`) for `timedOut` to be false, so a
 * leftover handle, stuck worker thread or pending read shows up as a timeout.
 */
export async function runScriptInChild(source: string, options: RunScriptOptions): Promise<ChildOutcome> {
  const directory = await mkdtemp(join(tmpdir(), 'child-script-'));
  const script = join(directory, 'script.mts');
  await writeFile(script, source);
  const environment: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  delete environment.NODE_OPTIONS;
  try {
    return await new Promise<ChildOutcome>((resolve, reject) => {
      const started = Date.now();
      const command = [process.execPath, '--import', 'tsx', script];
      const [file, ...args] =
        options.memoryLimitMb === undefined
          ? command
          : ['/bin/sh', '-c', `ulimit -d ${options.memoryLimitMb * 1024} && exec "$@"`, 'sh', ...command];
      const child = spawn(file ?? process.execPath, args, {
        cwd: projectRoot,
        env: environment,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.deadlineMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (exitCode) => {
        clearTimeout(timer);
        resolve({ timedOut, exitCode, stdout, stderr, elapsedMs: Date.now() - started });
      });
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * Asserts that the child exited on its own with code 0. The child's stderr goes into the
 * message with its stack frames defused: vitest would otherwise try to source-map them.
 */
export function assertExitedCleanly(outcome: ChildOutcome): void {
  if (!outcome.timedOut && outcome.exitCode === 0) return;
  const stderr = outcome.stderr.replace(/^(\s+)at /gm, '$1(at) ').slice(-2000);
  const what = outcome.timedOut
    ? `was still running after ${outcome.elapsedMs} ms and was killed`
    : `exited with code ${String(outcome.exitCode)}`;
  throw new Error(`The child process ${what}.\nstdout: ${outcome.stdout.slice(-1000)}\nstderr: ${stderr}`);
}
