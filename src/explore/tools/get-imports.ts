import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import type { CodeIntelligenceToolOptions } from '../index/code-intelligence-tool-options.js';
import { maxOutputCharsOf } from '../index/code-intelligence-tool-options.js';
import { truncateOutput } from './truncate-output.js';

const parameters = z.object({
  path: z.string().describe('Source file, relative to the repository root, e.g. "lib/axios.js".'),
});

/**
 * Creates the `get_imports` tool: each `import`, `export ... from`, dynamic `import()` and
 * `require()` of a file with its specifier, imported names, and for relative specifiers the
 * repo file it resolves to (extension and `index` resolution).
 */
export function createGetImportsTool(options: CodeIntelligenceToolOptions) {
  const maxOutputChars = maxOutputCharsOf(options);
  return defineTool({
    name: 'get_imports',
    description:
      'List what a file imports: every import, export-from, dynamic import() and require(), with the imported names ' +
      'and the repo file it resolves to (relative paths, tsconfig paths, workspace packages, Python/Go/Rust/Java ' +
      'modules, C includes). Unresolved bare specifiers are packages.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async ({ path }, context) => {
      const result = await options.index.imports(path, { signal: context?.signal });
      if (result.imports.length === 0) return `${result.path} imports nothing.`;
      const lines = [`${result.path}: ${result.imports.length} imports`];
      for (const record of result.imports) {
        const relative = record.specifier.startsWith('.');
        const more = (record.resolvedFiles ?? []).filter((file) => file !== record.resolved);
        const target =
          record.resolved !== undefined
            ? ` -> ${record.resolved}${more.length === 0 ? '' : ` + ${more.join(', ')}`}`
            : relative
              ? ' -> (no such repo file)'
              : ' (package)';
        const names = record.names.length === 0 ? ' (side effects only)' : ` {${record.names.join(', ')}}`;
        const typeOnly = record.typeOnly ? ' type-only' : '';
        lines.push(`L${record.line} ${record.type}${typeOnly} "${record.specifier}"${target}${names}`);
      }
      return truncateOutput(lines.join('\n'), maxOutputChars, 'Use import_graph for a summary.');
    },
  });
}
