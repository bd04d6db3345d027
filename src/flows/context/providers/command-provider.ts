import { execFile } from 'node:child_process';
import { z } from 'zod';
import type { Sandbox } from '../../../explore/sandbox/sandbox.js';
import { defineContextProvider } from '../context-provider.js';
import type { ContextProvider } from '../context-provider.js';

/**
 * A command the caller configures for `run_tests` or `lint_check`. It runs with `execFile`
 * (never a shell); the model only adds repo paths (checked to lie inside the root, passed as
 * `./<path>`) and, for tests, a marker after `markerFlag`. A path that resolves to a name
 * starting with `-`, and a marker starting with `-`, are refused, so the model cannot add options.
 * A command killed by a signal, or that prints more than 16 MiB, fails; any other exit is
 * reported with its exit code.
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
    // Checked after resolving: "./--config=x" and "a/../-rf" resolve to names that start with "-".
    const relative = sandbox.relative(sandbox.resolve(path));
    if (path.startsWith('-') || relative.startsWith('-'))
      throw new Error(
        `"${relative}" looks like an option; pass a repo-relative path to a file or directory.`,
      );
    // "./" keeps even a name that starts with "-" from being read as an option.
    return relative === '.' ? '.' : `./${relative}`;
  };
  const argsFor = (params: { path?: string; marker?: string; files?: string[] }): string[] => {
    const extra: string[] = [];
    if (params.path !== undefined) extra.push(repoPath(params.path));
    for (const file of params.files ?? []) extra.push(repoPath(file));
    if (params.marker !== undefined) {
      if (spec.markerFlag === undefined)
        throw new Error('This run_tests command takes no marker; leave marker out, or narrow with path.');
      if (params.marker.startsWith('-'))
        throw new Error(
          `The marker "${params.marker}" starts with "-", so the test runner would read it as an option; pass a test name.`,
        );
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

/** The most output `execFile` buffers; past it the child is killed. */
const maxBufferBytes = 16 * 1024 * 1024;

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
        maxBuffer: maxBufferBytes,
        env: { ...process.env, ...spec.env },
        ...(signal === undefined ? {} : { signal }),
      },
      (error, stdout, stderr) => {
        const execError = error as
          | (NodeJS.ErrnoException & { killed?: boolean; code?: unknown; signal?: NodeJS.Signals | null })
          | null;
        const output = `${stdout}${stderr === '' ? '' : `\n[stderr]\n${stderr}`}`.trim();
        const kept =
          output.length > maxOutputChars
            ? `[output cut: first ${output.length - maxOutputChars} characters left out]\n${output.slice(-maxOutputChars)}`
            : output;
        if (execError?.code === 'ENOENT')
          return reject(new Error(`Command "${spec.command}" was not found; check the configured command.`));
        if (execError?.name === 'AbortError') return reject(execError);
        if (execError?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return reject(
            new Error(
              `"${spec.command}" printed more than ${maxBufferBytes} bytes and was stopped before it finished ` +
                '(ERR_CHILD_PROCESS_STDIO_MAXBUFFER); narrow it with a path or a marker.',
            ),
          );
        if (execError?.killed === true)
          return reject(
            new Error(`"${spec.command}" was stopped after ${timeoutMs} ms; narrow it with a path.`),
          );
        if (typeof execError?.signal === 'string')
          return reject(
            new Error(
              `"${spec.command}" was killed by ${execError.signal} before it finished (out of memory, or ` +
                `stopped from outside); its output so far:\n${kept}`,
            ),
          );
        const code: unknown = execError?.code;
        if (execError !== null && typeof code !== 'number')
          return reject(
            new Error(`"${spec.command}" could not run: ${execError.message}`, { cause: execError }),
          );
        const exitCode = typeof code === 'number' ? code : 0;
        resolve(`$ ${[spec.command, ...args].join(' ')}\nexit code ${exitCode}\n${kept}`);
      },
    );
  });
}
