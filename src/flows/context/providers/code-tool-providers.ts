import { z } from 'zod';
import type { ToolRegistry } from '../../../tools/define-tool.js';
import { defineContextProvider } from '../context-provider.js';
import type { ContextProviderRegistry } from '../context-provider.js';
import { runCodeTool } from './run-code-tool.js';

/**
 * The providers backed by the code tool pack: `read_file`, `search_code` (over `search_text`),
 * `git_log` and `git_diff`. They share the pack's sandbox, caps and error messages.
 */
export function createCodeToolProviders(tools: ToolRegistry): ContextProviderRegistry {
  return {
    read_file: defineContextProvider({
      name: 'read_file',
      description: 'A file with line numbers (400 lines from start_line by default).',
      parameters: z.object({
        path: z.string(),
        start_line: z.number().int().min(1).optional(),
        end_line: z.number().int().min(1).optional(),
      }),
      fulfill: (params, { signal }) => runCodeTool(tools.read_file, 'read_file', params, signal),
    }),
    search_code: defineContextProvider({
      name: 'search_code',
      description:
        'Lines matching a regular expression, as "path:line: text"; glob narrows the files (e.g. "*.ts").',
      parameters: z.object({ pattern: z.string().min(1), glob: z.string().optional() }),
      fulfill: (params, { signal }) => runCodeTool(tools.search_text, 'search_text', params, signal),
    }),
    git_log: defineContextProvider({
      name: 'git_log',
      description: 'Recent commits, newest first, optionally only those touching path.',
      parameters: z.object({ path: z.string().optional(), n: z.number().int().min(1).max(100).optional() }),
      fulfill: (params, { signal }) => runCodeTool(tools.git_log, 'git_log', params, signal),
    }),
    git_diff: defineContextProvider({
      name: 'git_diff',
      description: 'The diff of the working tree against base (a commit, branch or tag; default HEAD).',
      parameters: z.object({ base: z.string().optional() }),
      fulfill: (params, { signal }) => runCodeTool(tools.git_diff, 'git_diff', params, signal),
    }),
  };
}
