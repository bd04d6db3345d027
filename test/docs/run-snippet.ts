import { spawn } from 'node:child_process';

/** How a code block's process ended. */
export interface SnippetOutcome {
  /** True when it was still running at the deadline and was killed. */
  readonly timedOut: boolean;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Milliseconds from spawn to exit (or to the kill). */
  readonly elapsedMs: number;
}

/** Options of {@link runSnippet}. */
export interface RunSnippetOptions {
  /** The module to run, a `.ts` file inside the consumer app so its imports resolve there. */
  readonly file: string;
  /** The working directory, a fresh folder; `tsx` must resolve from it. */
  readonly cwd: string;
  /** The whole environment of the child; nothing of this process's is inherited. */
  readonly env: NodeJS.ProcessEnv;
  /** Modules loaded with `--import` after `tsx`, as file URLs. */
  readonly preloads: readonly string[];
  /** The child and everything it started are killed (SIGKILL) after this many milliseconds. */
  readonly deadlineMs: number;
}

/**
 * Runs a TypeScript module with `node --import tsx` in a process group of its own and waits for it
 * to exit by itself, killing the group at the deadline. Once the module's process has exited, what
 * it left running (an MCP server it did not close) is killed too, so the outputs can close.
 */
export function runSnippet(options: RunSnippetOptions): Promise<SnippetOutcome> {
  return new Promise<SnippetOutcome>((resolve, reject) => {
    const started = Date.now();
    const args = ['--import', 'tsx', ...options.preloads.flatMap((url) => ['--import', url]), options.file];
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let exited: { code: number | null; signal: NodeJS.Signals | null; elapsedMs: number } | undefined;
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.deadlineMs);
    child.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exited = { code, signal, elapsedMs: Date.now() - started };
      clearTimeout(deadline);
      killGroup();
      // A process outside the group may still hold the outputs open: stop reading them.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 5_000).unref();
    });
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      resolve({
        timedOut,
        exitCode: exited?.code ?? code,
        signal: exited?.signal ?? signal,
        stdout,
        stderr,
        elapsedMs: exited?.elapsedMs ?? Date.now() - started,
      });
    });
  });
}
