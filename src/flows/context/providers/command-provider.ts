import { z } from 'zod';
import type { Sandbox } from '../../../explore/sandbox/sandbox.js';
import { defineContextProvider } from '../context-provider.js';
import type { ContextProvider } from '../context-provider.js';
import { commandEnvironment, parseInheritEnv } from './command-environment.js';
import { runCommand } from './run-command.js';

/**
 * A command the caller configures for `run_tests` or `lint_check`. It executes code from the
 * repository (its test config, `conftest.py`, `node_modules/.bin`), so it runs with an
 * environment allowlist rather than the host's secrets, in its own process group, never through
 * a shell. The model only adds repo paths (checked to lie inside the root, passed as
 * `./<path>`) and, for tests, a marker after `markerFlag`. A path that resolves to a name
 * starting with `-`, and a marker starting with `-`, are refused, so the model cannot add options.
 * A command killed by a signal, stopped at its timeout, or that prints more than 16 MiB, fails;
 * any other exit is reported with its exit code. On a timeout, an abort or too much output, the
 * command and every process it started get SIGTERM, then SIGKILL 2 s later, before the call settles.
 *
 * @example
 * { command: 'npx', args: ['vitest', 'run'], markerFlag: '-t' }
 * { command: 'npx', args: ['eslint', '--format', 'json'] }
 * { command: 'pytest', args: ['-q'], markerFlag: '-k', inheritEnv: ['VIRTUAL_ENV'] }
 */
export interface CommandSpec {
  /** The program, found on `PATH` (e.g. `'npx'`, `'pytest'`) or an absolute path. */
  readonly command: string;
  /** Arguments before the ones the model adds. */
  readonly args?: readonly string[];
  /** The option that selects tests by name, e.g. `'-t'` (vitest) or `'-k'` (pytest); without it `marker` is refused. */
  readonly markerFlag?: string;
  /** @default 120_000 */
  readonly timeoutMs?: number;
  /** Characters of output kept (the tail, where summaries are). @default 20_000 */
  readonly maxOutputChars?: number;
  /** Environment variables set for the command, on top of (and winning over) the inherited ones. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Which of the host's environment variables the command gets besides a default allowlist of
   * names that hold no secrets (`PATH`, `HOME`, `USER`, `LOGNAME`, `SHELL`, `TERM`, `LANG`,
   * `LANGUAGE`, `LC_*`, `TZ`, `TMPDIR`, `TEMP`, `TMP`, `CI`, `NO_COLOR`, and on Windows
   * `PATHEXT`, `ComSpec`, `SystemRoot`, `SystemDrive`, `windir`, `USERPROFILE`, `USERNAME`,
   * `HOMEDRIVE`, `HOMEPATH`, `APPDATA`, `LOCALAPPDATA`, `ProgramData`, the `ProgramFiles` and
   * `CommonProgramFiles` folders, `ALLUSERSPROFILE`, `PUBLIC`, `OS`, `PROCESSOR_ARCHITECTURE`,
   * `NUMBER_OF_PROCESSORS`): an array of further names to pass (e.g. `['VIRTUAL_ENV']`), or
   * `true` for the whole environment, API keys included. Names compare case-insensitively on
   * Windows. `NODE_ENV` is not passed unless named: test runners set their own.
   *
   * @default false
   */
  readonly inheritEnv?: boolean | readonly string[];
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
  const inherited = parseInheritEnv(spec.inheritEnv, `commands.${options.kind}.inheritEnv`);
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
  const extraArgs = (params: { path?: string; marker?: string; files?: string[] }): string[] => {
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
    return extra;
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
    fulfill: (params, { signal }) =>
      runCommand({
        command: spec.command,
        args: [...(spec.args ?? []), ...extraArgs(params)],
        cwd: sandbox.root,
        env: commandEnvironment({ inherited, extra: spec.env }),
        timeoutMs: spec.timeoutMs ?? 120_000,
        maxOutputChars: spec.maxOutputChars ?? 20_000,
        signal,
      }),
  });
}
