import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { resolveCodeToolLimits } from '../code-tool-limits.js';
import type { CodeToolFactoryOptions } from '../code-tool-limits.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { literalPathspec, runGit } from './run-git.js';
import { truncateOutput } from './truncate-output.js';

const parameters = z.object({
  path: z
    .string()
    .optional()
    .describe('Only commits touching this file or directory (repo-relative). Default: all.'),
  n: z.number().int().min(1).max(500).optional().describe('How many commits, newest first. Default 10.'),
});

/** Fields are separated by the ASCII unit separator, which never appears in names or subjects. */
const separator = '\x1f';

/**
 * Creates the `git_log` tool: the newest commits (hash, date, author, subject), optionally
 * for one path. Fails clearly outside a git repository.
 */
export function createGitLogTool(options: CodeToolFactoryOptions) {
  const { sandbox } = options;
  const limits = resolveCodeToolLimits(options);
  return defineTool({
    name: 'git_log',
    description:
      'Show recent git commits, newest first: short hash, date, author and subject. ' +
      'Pass path to see the history of one file or directory, and n for how many (default 10).',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async (input, context) => {
      const path = sandbox.relative(sandbox.resolve(input.path ?? '.'));
      if (path !== '.' && sandbox.isExcluded(path)) {
        throw new SandboxError({
          path,
          message: `Path "${path}" is outside the files this tool set may read (include/exclude settings).`,
        });
      }
      const n = input.n ?? 10;
      const { stdout: output, truncated } = await runGit(
        sandbox,
        [
          'log',
          `--max-count=${n}`,
          '--no-color',
          '--no-show-signature',
          '--date=short',
          `--format=%h${separator}%ad${separator}%an${separator}%s`,
          '--',
          literalPathspec(path),
        ],
        {
          timeoutMs: limits.gitTimeoutMs,
          maxOutputBytes: limits.gitMaxBufferBytes,
          signal: context?.signal,
          toolName: 'git_log',
        },
      );
      const complete = truncated ? output.slice(0, output.lastIndexOf('\n') + 1) : output;
      const lines = complete
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split(separator).join('  '));
      if (lines.length === 0) return noCommitsMessage(sandbox, path, limits.gitTimeoutMs, context?.signal);
      const footer = truncated
        ? `\n[Showing the newest ${lines.length} commits; the rest passed ${limits.gitMaxBufferBytes} bytes. Pass a smaller n.]`
        : lines.length === n
          ? `\n[Showing the newest ${n} commits; pass a larger n to see older ones.]`
          : '';
      return truncateOutput(`${lines.join('\n')}${footer}`, limits.maxOutputChars, 'Pass a smaller n.');
    },
  });
}

/** Why `git log` found nothing: the path is ignored by git, or nothing under it was ever committed. */
async function noCommitsMessage(
  sandbox: Sandbox,
  path: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<string> {
  const what = path === '.' ? `the repository root "${sandbox.root}"` : `"${path}"`;
  // `check-ignore` exits 0 when the path is ignored, 1 when it is not (runGit rejects on 1). It
  // refuses `:(literal)`, so `./` keeps a path such as `:(top)x` from being read as pathspec magic.
  const ignored = await runGit(sandbox, ['check-ignore', '--quiet', '--', `./${path}`], {
    timeoutMs,
    maxOutputBytes: 4096,
    signal,
    toolName: 'git_log',
  }).then(
    () => true,
    () => false,
  );
  return ignored
    ? `No commits: ${what} is ignored by git (a .gitignore rule covers it), so git keeps no history for it. Use list_files and read_file instead.`
    : `No commits touch ${what}: nothing under it has been committed yet.`;
}
