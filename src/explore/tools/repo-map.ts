import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import type { CodeIntelligenceToolOptions } from '../index/code-intelligence-tool-options.js';
import { estimateTokens } from '../index/repo-map.js';

const parameters = z.object({
  max_tokens: z
    .number()
    .int()
    .min(64)
    .max(16_384)
    .optional()
    .describe('Token budget of the map. Default 1024.'),
  focus_files: z.array(z.string()).optional().describe('Files to center the map on (repo-relative).'),
  focus_symbols: z.array(z.string()).optional().describe('Identifiers to center the map on.'),
});

/**
 * Creates the `repo_map` tool: the repo's most important files with their key symbol
 * signatures, ranked by PageRank over the definition/reference graph (aider's repo map),
 * within `max_tokens` (estimated as characters / 4), header included.
 */
export function createRepoMapTool(options: CodeIntelligenceToolOptions) {
  return defineTool({
    name: 'repo_map',
    description:
      'A ranked overview of the repository that fits a token budget: the most depended-on files with their key ' +
      'symbol signatures (line: signature). Start here in an unfamiliar repo; pass focus_files / focus_symbols ' +
      'to center it on what you are working on.',
    parameters,
    execute: async (input, context) => {
      const maxTokens = input.max_tokens ?? 1024;
      const header = (count: number, tokens: number): string =>
        `Repo map: ${count} files, ~${tokens} tokens (budget ${maxTokens}; 1 token ~ 4 characters). Format: path, then line: signature.`;
      const reserve = estimateTokens(header(99_999, 99_999)) + 1;
      const map = await options.index.repoMap({
        maxTokens: Math.max(16, maxTokens - reserve),
        ...(input.focus_files === undefined ? {} : { focusFiles: input.focus_files }),
        ...(input.focus_symbols === undefined ? {} : { focusSymbols: input.focus_symbols }),
        signal: context?.signal,
      });
      if (map.text === '') return 'The repository has no source files the index understands.';
      const first = header(map.files.length, map.estimatedTokens);
      return `${first}\n${map.text}`;
    },
  });
}
