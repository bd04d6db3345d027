import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import type { CodeIntelligenceToolOptions } from '../index/code-intelligence-tool-options.js';
import { maxOutputCharsOf } from '../index/code-intelligence-tool-options.js';
import { truncateOutput } from './truncate-output.js';

/** The most reference lines one `get_references` call lists. */
export const maxReferencesShown = 200;

const parameters = z.object({
  symbol: z.string().min(1).describe('Name whose uses to find, e.g. "AxiosError" or "Axios.request".'),
  path: z
    .string()
    .optional()
    .describe('A file or directory to narrow an ambiguous name to its declaration there.'),
  include_declaration: z.boolean().optional().describe('Also list the declaration itself. Default false.'),
});

/**
 * Creates the `get_references` tool: every use of a symbol (file, line, source text),
 * grouped by file, capped at {@link maxReferencesShown}. Exact for JS/TS through the
 * TypeScript language service (imports, re-exports and `export default { fn }` objects included).
 */
export function createGetReferencesTool(options: CodeIntelligenceToolOptions) {
  const maxOutputChars = maxOutputCharsOf(options);
  return defineTool({
    name: 'get_references',
    description:
      'Find every reference to a function, class, method, variable or type across the repo: file, line and the ' +
      'source line, grouped by file. Semantic for JS/TS (not a text match: follows imports and re-exports); ' +
      'whole-word matches for other languages.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async ({ symbol, path, include_declaration: includeDeclaration }, context) => {
      const result = await options.index.references(symbol, {
        ...(path === undefined ? {} : { path }),
        ...(includeDeclaration === undefined ? {} : { includeDeclaration }),
        maxReferences: maxReferencesShown,
        signal: context?.signal,
      });
      if (result.definitions.length === 0) {
        throw new Error(
          `No declaration of "${symbol}" found${path === undefined ? '' : ` in or through "${path}"`}, so there is nothing to ` +
            'find references to. Names are case-sensitive; try get_definition or search_text for the text.',
        );
      }
      const declared = result.definitions
        .map((definition) => `${definition.path}:${definition.line}`)
        .join(', ');
      const lines = [
        `${result.total} references to "${symbol}" in ${result.fileCount} files (declared at ${declared}):`,
      ];
      for (const file of result.files) {
        lines.push(`${file.path} (${file.references.length})`);
        for (const reference of file.references) lines.push(`  ${reference.line}: ${reference.text}`);
      }
      if (result.truncated) {
        lines.push(
          `[Showing the first ${maxReferencesShown} of ${result.total} references in path order, from ${result.files.length} ` +
            `of ${result.fileCount} files (through ${result.files.at(-1)?.path ?? ''}). For the rest, pass path to narrow ` +
            'to one declaration, or search_text for the name with path set to a directory not yet covered.]',
        );
      }
      return truncateOutput(lines.join('\n'), maxOutputChars, 'Pass path to narrow.');
    },
  });
}
