import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI, as `npx tool-orchestrator` runs it. */
export const builtCli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** What one run of the CLI printed, and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment a user without provider settings has: every variable the CLI reads is cleared
 * (so the machine's own keys never leak into a test), colors are left to the terminal, `extra` on top.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^(TOOL_ORCHESTRATOR|OPENAI|DEEPSEEK)_/.test(name) ||
      /^(NO_COLOR|FORCE_COLOR|NODE_DISABLE_COLORS|CI)$/.test(name)
    ) {
      delete env[name];
    }
  }
  return { ...env, ...extra };
}

/** Spawns the built CLI with pipes (not a terminal) and resolves when it exits. */
export function runBuiltCli(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtCli, ...args],
      {
        env: cleanEnv(options.env) as NodeJS.ProcessEnv,
        timeout: options.timeoutMs ?? 30_000,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
