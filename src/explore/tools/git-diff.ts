import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { resolveCodeToolLimits } from '../code-tool-limits.js';
import type { CodeToolFactoryOptions } from '../code-tool-limits.js';
import { denyPathspecs, runGit } from './run-git.js';
import { truncateOutput } from './truncate-output.js';

const parameters = z.object({
  base: z
    .string()
    .optional()
    .describe(
      'Commit, branch or tag to compare the working tree with, e.g. "HEAD~3" or "main". Default "HEAD".',
    ),
  path: z.string().optional().describe('Only this file or directory (repo-relative). Default: everything.'),
});

/** Revisions: names, hashes, `~`/`^` suffixes, `@{...}`, ranges. Never a leading `-` (option injection). */
const revisionPattern = /^[A-Za-z0-9_][A-Za-z0-9._/@{}~^:+-]*$/;

/**
 * Creates the `git_diff` tool: the diff between `base` (default `HEAD`) and the working
 * tree, capped with a note and a per-file summary when long. Secret files stay hidden.
 */
export function createGitDiffTool(options: CodeToolFactoryOptions) {
  const { sandbox } = options;
  const limits = resolveCodeToolLimits(options);
  return defineTool({
    name: 'git_diff',
    description:
      'Show the git diff between a base revision (default HEAD) and the current working tree, i.e. uncommitted ' +
      'changes by default; untracked files are not included. Pass path to limit it to one file or directory.',
    parameters,
    execute: async (input, context) => {
      const base = input.base ?? 'HEAD';
      if (!revisionPattern.test(base) || base.length > 200) {
        throw new Error(
          `Invalid base ${JSON.stringify(base)}: pass a commit hash, branch or tag such as "HEAD", "HEAD~2" or "main" ` +
            '(letters, digits and . _ / @ { } ~ ^ : + -, not starting with "-").',
        );
      }
      const path = sandbox.relative(sandbox.resolve(input.path ?? '.'));
      const gitOptions = {
        timeoutMs: limits.gitTimeoutMs,
        maxBufferBytes: limits.gitMaxBufferBytes,
        signal: context?.signal,
        toolName: 'git_diff',
      };
      const common = ['--no-color', '--no-ext-diff', '--no-textconv', '--relative', base, '--', path];
      const pathspecs = denyPathspecs(sandbox.deny);
      const diff = await runGit(sandbox, ['diff', ...common, ...pathspecs], gitOptions);
      if (diff.trim() === '')
        return `No differences between ${base} and the working tree${path === '.' ? '' : ` in "${path}"`}.`;
      if (diff.length <= limits.maxOutputChars) return diff;
      const stat = await runGit(sandbox, ['diff', '--stat=120', ...common, ...pathspecs], gitOptions);
      const summary = truncateOutput(
        stat.trimEnd(),
        Math.floor(limits.maxOutputChars / 4),
        'Pass path to narrow.',
      );
      const cut = diff.lastIndexOf('\n', Math.max(0, limits.maxOutputChars - summary.length - 300));
      return (
        `${diff.slice(0, Math.max(cut, 0))}\n` +
        `[Diff cut at ${Math.max(cut, 0)} of ${diff.length} characters. Pass path to see one file's diff. Changed files:\n` +
        `${summary}\n]`
      );
    },
  });
}
