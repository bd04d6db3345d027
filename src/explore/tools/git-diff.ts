import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import { resolveCodeToolLimits } from '../code-tool-limits.js';
import type { CodeToolFactoryOptions } from '../code-tool-limits.js';
import { assertPlainRevision } from './git-revision.js';
import { visiblePathspecs } from './git-visible-pathspecs.js';
import { filesHoldingPrivateKeys } from './git-private-key-files.js';
import { denyPathspecs, literalPathspec, runGit } from './run-git.js';
import { truncateOutput } from './truncate-output.js';

const parameters = z.object({
  base: z
    .string()
    .optional()
    .describe(
      'Commit, branch or tag to compare the working tree with, e.g. "HEAD~3" or "main", or a range "A..B". Default "HEAD".',
    ),
  path: z.string().optional().describe('Only this file or directory (repo-relative). Default: everything.'),
});

/**
 * Creates the `git_diff` tool: the diff between `base` (default `HEAD`) and the working
 * tree, limited to the files the sandbox shows (secrets, `include`/`exclude`). A changed file
 * holding a private key block on either side is left out and named in a note. A long diff
 * is cut at `maxOutputChars` (git is stopped, not waited for) and followed by its
 * `git diff --stat` summary. Git runs no program configured by the repository.
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
    annotations: readOnlyCodeToolAnnotations,
    execute: async (input, context) => {
      const base = input.base ?? 'HEAD';
      assertPlainRevision(base);
      const path = sandbox.relative(sandbox.resolve(input.path ?? '.'));
      // Enough bytes for maxOutputChars characters of any UTF-8, and one more to tell "longer".
      const maxOutputBytes = Math.min(limits.gitMaxBufferBytes, limits.maxOutputChars * 4 + 1);
      const gitOptions = {
        timeoutMs: limits.gitTimeoutMs,
        maxOutputBytes,
        signal: context?.signal,
        toolName: 'git_diff',
      };
      const diffArguments = [
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        '--ignore-submodules=all',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        '--relative',
        base,
      ];
      const noDifferences = `No differences between ${base} and the working tree${path === '.' ? '' : ` in "${path}"`}.`;
      const selection = await visiblePathspecs(
        sandbox,
        diffArguments,
        [literalPathspec(path), ...denyPathspecs(sandbox.deny)],
        {
          ...gitOptions,
          maxOutputBytes: limits.gitMaxBufferBytes,
        },
      );
      if (selection.type === 'nothing_visible') return noDifferences;
      const withKeys = await filesHoldingPrivateKeys(sandbox, {
        ...gitOptions,
        maxOutputBytes: limits.gitMaxBufferBytes,
        base,
        files: selection.files,
        pathspecs: selection.pathspecs,
      });
      const withheld = selection.files.filter((file) => withKeys.has(file));
      const note = withheldNote(withheld);
      if (withheld.length > 0 && withheld.length === selection.files.length) return note.trimStart();
      const pathspecs = [
        '--',
        ...selection.pathspecs,
        ...withheld.map((file) => `:(exclude,literal)${file}`),
      ];
      const diff = await runGit(sandbox, ['diff', ...diffArguments, ...pathspecs], gitOptions);
      if (diff.stdout.trim() === '') return `${noDifferences}${note}`;
      if (!diff.truncated && diff.stdout.length + note.length <= limits.maxOutputChars) {
        return `${diff.stdout}${note}`;
      }

      const stat = await runGit(sandbox, ['diff', '--stat=120', ...diffArguments, ...pathspecs], gitOptions);
      const summary = truncateOutput(
        stat.stdout.trimEnd(),
        Math.floor(limits.maxOutputChars / 4),
        'Pass path to narrow.',
      );
      const cut = Math.max(
        diff.stdout.lastIndexOf(
          '\n',
          Math.max(0, limits.maxOutputChars - summary.length - note.length - 400),
        ),
        0,
      );
      const size = diff.truncated
        ? `git was stopped after ${maxOutputBytes} bytes`
        : `the whole diff has ${diff.stdout.length} characters`;
      return (
        `${diff.stdout.slice(0, cut)}\n` +
        `[Diff cut at ${cut} characters (${size}). Changed files:\n` +
        `${summary}\n` +
        "Pass path to see one file's diff; if one file's diff is still too long, read the file with read_file and a line range.]" +
        note
      );
    },
  });
}

/** Names the files left out for holding a private key, or '' when there are none. */
function withheldNote(files: readonly string[]): string {
  if (files.length === 0) return '';
  const names = files.slice(0, 10).join(', ');
  const more = files.length > 10 ? ` and ${files.length - 10} more` : '';
  return (
    `\n[Not shown: the changes to ${names}${more}, which hold a private key ("-----BEGIN ... PRIVATE KEY-----"). ` +
    'read_file shows their current text with the key redacted.]'
  );
}
