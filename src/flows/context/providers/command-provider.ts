import { execFile } from 'node:child_process';
import { z } from 'zod';
import type { Sandbox } from '../../../explore/sandbox/sandbox.js';
import { defineContextProvider } from '../context-provider.js';
import type { ContextProvider } from '../context-provider.js';

/**
 * A command the caller configures for `run_tests` or `lint_check`. It runs with `execFile`
 * (never a shell); the model only adds repo paths (checked to lie inside the root) and, for
 * tests, a marker after `markerFlag`. Values starting with `-` are refused, so the model
 * cannot add options.
 *
 * @example
 * { command: 'npx', args: ['vitest', 'run'], markerFlag: '-t' }
 * { command: 'npx', args: ['eslint', '--format', 'json'] }
 */
export interface CommandSpec {
  readonly command: string;
  readonly args?: readonly string[];
  /** The option that selects tests by name, e.g. `'-t'` (vitest) or `'-k'` (pytest); without it `marker` is refused. */
  readonly markerFlag?: string;
  /** @default 120_000 */
  readonly timeoutMs?: number;
  /** Characters of output kept (the tail, where summaries are). @default 20_000 */
  readonly maxOutputChars?: number;
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Options of {@link createCommandProvider}. */
export interface CommandProviderOptions {
  readonly kind: 'run_tests' | 'lint_check';
  readonly spec: CommandSpec;
  readonly sandbox: Sandbox;
}

const testsParameters = z.object({ path: z.string().optional(), marker: z.string().optional() });
const lintParameters = z.object({ files: z.array(z.string()).max(50).optional() });

/** Creates `run_tests` (path, marker) or `lint_check` (files) over the caller's command. */
export function createCommandProvider(
  options: CommandProviderOptions,
): ContextProvider<{ path?: string; marker?: string; files?: string[] }> {
  const { spec, sandbox } = options;
  const repoPath = (path: string): string => {
    if (path.startsWith('-')) throw new Error(`"${path}" looks like an option; pass a repo-relative path.`);
    return sandbox.relative(sandbox.resolve(path));
  };
  const argsFor = (params: { path?: string; marker?: string; files?: string[] }): string[] => {
    const extra: string[] = [];
    if (params.path !== undefined) extra.push(repoPath(params.path));
    for (const file of params.files ?? []) extra.push(repoPath(file));
    if (params.marker !== undefined) {
      if (spec.markerFlag === undefined)
        throw new Error('This run_tests command takes no marker; leave marker out, or narrow with path.');
      extra.push(spec.markerFlag, params.marker);
    }
    return [...(spec.args ?? []), ...extra];
  };
  const isTests = options.kind === 'run_tests';
  return defineContextProvider({
    name: options.kind,
    description: isTests
      ? `Runs the project's tests (${[spec.command, ...(spec.args ?? [])].join(' ')}), optionally one path${spec.markerFlag === undefined ? '' : ' and tests matching marker'}.`
      : `Runs the project's linter (${[spec.command, ...(spec.args ?? [])].join(' ')}) on the given files, or all.`,
    parameters: (isTests ? testsParameters : lintParameters) as z.ZodType<{
      path?: string;
      marker?: string;
      files?: string[];
    }>,
    fulfill: (params, { signal }) => runCommand(spec, argsFor(params), sandbox.root, signal),
  });
}

function runCommand(
  spec: CommandSpec,
  args: string[],
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  const maxOutputChars = spec.maxOutputChars ?? 20_000;
  const timeoutMs = spec.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    execFile(
      spec.command,
      args,
      {
        cwd,
        shell: false,
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, ...spec.env },
        ...(signal === undefined ? {} : { signal }),
      },
      (error, stdout, stderr) => {
        const execError = error as (NodeJS.ErrnoException & { killed?: boolean; code?: unknown }) | null;
        if (execError?.code === 'ENOENT')
          return reject(new Error(`Command "${spec.command}" was not found; check the configured command.`));
        if (execError?.killed === true)
          return reject(
            new Error(`"${spec.command}" was stopped after ${timeoutMs} ms; narrow it with a path.`),
          );
        if (execError?.name === 'AbortError') return reject(execError);
        const exitCode = typeof execError?.code === 'number' ? execError.code : 0;
        const output = `${stdout}${stderr === '' ? '' : `\n[stderr]\n${stderr}`}`.trim();
        const kept =
          output.length > maxOutputChars
            ? `[output cut: first ${output.length - maxOutputChars} characters left out]\n${output.slice(-maxOutputChars)}`
            : output;
        resolve(`$ ${[spec.command, ...args].join(' ')}\nexit code ${exitCode}\n${kept}`);
      },
    );
  });
}
