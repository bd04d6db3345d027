import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import type { CodeIntelligenceToolOptions } from '../index/code-intelligence-tool-options.js';
import { maxOutputCharsOf } from '../index/code-intelligence-tool-options.js';
import { truncateOutput } from './truncate-output.js';

const parameters = z.object({
  symbol: z
    .string()
    .min(1)
    .describe('Name to look up, e.g. "dispatchRequest" or "Axios.request" for a method.'),
  path: z
    .string()
    .optional()
    .describe('A file or directory to narrow an ambiguous name to; a file that imports the name also works.'),
});

/**
 * Creates the `get_definition` tool: where a name is declared (file, line, kind and a short
 * snippet), exported declarations first, following re-exports and default exports.
 */
export function createGetDefinitionTool(options: CodeIntelligenceToolOptions) {
  const maxOutputChars = maxOutputCharsOf(options);
  return defineTool({
    name: 'get_definition',
    description:
      'Find where a function, class, method, variable or type is defined: file, line, kind and a short snippet. ' +
      'Follows re-exports, import aliases and default exports to the real declaration (TypeScript language ' +
      'service for JS/TS). Pass path to pick among several same-named definitions.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async ({ symbol, path }, context) => {
      const definitions = await options.index.definitions(symbol, {
        ...(path === undefined ? {} : { path }),
        signal: context?.signal,
      });
      if (definitions.length === 0) {
        const where = path === undefined ? 'in the indexed source files' : `in or through "${path}"`;
        throw new Error(
          `No definition of "${symbol}" found ${where}. Names are case-sensitive; use search_text to find where it is mentioned` +
            (path === undefined
              ? ', or pass path = a file that uses it so its import can be followed.'
              : ', or retry without path.'),
        );
      }
      const lines = [
        `${definitions.length} definition${definitions.length === 1 ? '' : 's'} of "${symbol}":`,
      ];
      for (const definition of definitions) {
        const name =
          definition.container === undefined ? definition.name : `${definition.container}.${definition.name}`;
        lines.push(
          `${definition.path}:${definition.line} ${definition.kind} ${name}${definition.exported ? ' (exported)' : ''}`,
        );
        for (const [offset, text] of definition.snippet.split('\n').entries())
          lines.push(`  ${definition.line + offset} | ${text}`);
      }
      return truncateOutput(
        lines.join('\n'),
        maxOutputChars,
        'Pass path to narrow the name to one file or directory.',
      );
    },
  });
}
