import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool, ToolExecutionContext } from '../../tools/define-tool.js';

const parameters = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('A JavaScript regular expression (case-insensitive), e.g. "createInstance|interceptors".'),
  path: z.string().optional().describe('Directory or file to search, relative to the repository root.'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts".'),
});

/**
 * Creates `grep_repo`: the tool pack's `search_text` under the explorer's name, with a smaller
 * surface (pattern, path, glob) and `defaultPath` (the explorer's `directory`) when no path is given.
 */
export function createGrepRepoTool(searchText: Tool, defaultPath: string | undefined) {
  return defineTool({
    name: 'grep_repo',
    description:
      'Search file contents like grep; returns "path:line: text" lines. Narrow with path or glob, ' +
      'then read_file around the lines you need.',
    parameters,
    execute: (input, context: ToolExecutionContext) => {
      const path = input.path ?? defaultPath;
      const arguments_ = {
        pattern: input.pattern,
        ...(path === undefined ? {} : { path }),
        ...(input.glob === undefined ? {} : { glob: input.glob }),
      };
      const validated = searchText.schema.validate(arguments_);
      if (!validated.success) throw new Error(validated.issues.map((issue) => issue.message).join('; '));
      return searchText.execute(validated.value, context);
    },
  });
}
