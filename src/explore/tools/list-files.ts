import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import { resolveCodeToolLimits } from '../code-tool-limits.js';
import type { CodeToolFactoryOptions } from '../code-tool-limits.js';
import { truncateOutput } from './truncate-output.js';
import { walkStopped } from './walk-stopped.js';

const parameters = z.object({
  path: z.string().optional().describe('Directory to list, relative to the repository root. Default ".".'),
  pattern: z
    .string()
    .optional()
    .describe(
      'Glob to filter files, e.g. "*.ts" (matches file names) or "src/**/*.test.ts" (matches paths).',
    ),
  max_results: z.number().int().min(1).max(5000).optional().describe('Most paths to return. Default 200.'),
});

/** How many paths `list_files` returns when the model does not say. */
export const defaultListFilesMaxResults = 200;

/**
 * Creates the `list_files` tool: repo-relative paths, sorted, `.gitignore`-aware, with
 * `.git`, `node_modules` and build output hidden; over the cap it says how many more and
 * how many per directory, so the model can narrow.
 */
export function createListFilesTool(options: CodeToolFactoryOptions) {
  const { sandbox } = options;
  const limits = resolveCodeToolLimits(options);
  return defineTool({
    name: 'list_files',
    description:
      'List files in the repository, as paths relative to its root, sorted. Respects .gitignore and hides .git, ' +
      'node_modules and build output. Use `path` to list one directory and `pattern` (a glob) to filter, ' +
      'e.g. {"path": "src", "pattern": "*.ts"}.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async (input, context) => {
      const path = input.path ?? '.';
      const maxResults = input.max_results ?? defaultListFilesMaxResults;
      const files = await sandbox.listFiles({
        path,
        ...(input.pattern === undefined ? {} : { pattern: input.pattern }),
        ...(context?.signal === undefined ? {} : { signal: context.signal }),
      });
      const filter = input.pattern === undefined ? '' : ` matching "${input.pattern}"`;
      if (files.length === 0 && files.truncated)
        return `No files${filter} under "${path}" so far: ${walkStopped(0, limits.maxFiles)} Narrow with \`path\` or \`pattern\` to list the rest.`;
      if (files.length === 0) {
        if (input.pattern !== undefined)
          return `No files matching "${input.pattern}" under "${path}". Try a broader pattern.`;
        const hidden =
          'it is empty, or every file in it is hidden (.gitignore, .git, node_modules, build output)';
        return sandbox.relative(sandbox.resolve(path)) === '.'
          ? `No files in the repository: ${hidden}.`
          : `No files under "${path}": ${hidden}. list_files with path "." shows the whole tree.`;
      }
      const shown = files.slice(0, maxResults);
      const lines = [...shown];
      if (files.length > maxResults) {
        const more = files.length - maxResults;
        lines.push(
          '',
          `[${more}${files.truncated ? '+' : ''} more files${filter} not shown (${files.length}${files.truncated ? '+' : ''} in all). ` +
            'Narrow with `path` or `pattern`, or raise `max_results`. Files per directory:',
          ...countByDirectory(files, sandbox.relative(sandbox.resolve(path))).map(
            ([directory, count]) => `  ${directory}: ${count}`,
          ),
          ']',
        );
      } else if (files.truncated) {
        lines.push(
          '',
          `[${walkStopped(files.length, limits.maxFiles)} Narrow with \`path\` or \`pattern\` to list the rest.]`,
        );
      }
      return truncateOutput(lines.join('\n'), limits.maxOutputChars, 'Narrow with `path` or `pattern`.');
    },
  });
}

/** Counts files per first-level directory below `base`, largest first, at most 30 rows. */
function countByDirectory(files: readonly string[], base: string): [string, number][] {
  const prefix = base === '.' || base === '' ? '' : `${base.replace(/\/+$/, '')}/`;
  const counts = new Map<string, number>();
  for (const file of files) {
    const rest = file.startsWith(prefix) ? file.slice(prefix.length) : file;
    const slash = rest.indexOf('/');
    const key =
      slash === -1 ? `${prefix || './'} (files directly here)` : `${prefix}${rest.slice(0, slash)}/`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((left, right) => right[1] - left[1]).slice(0, 30);
}
