import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import type { CodeIntelligenceToolOptions } from '../index/code-intelligence-tool-options.js';
import { maxOutputCharsOf } from '../index/code-intelligence-tool-options.js';
import { estimateTokens } from '../index/repo-map.js';
import { truncateOutput } from './truncate-output.js';

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
 * within `max_tokens` (estimated as characters / 4), header included, and never over the
 * `maxOutputChars` cap. Focus files the index does not know are named in the output.
 *
 * @throws {SandboxError} (as a tool error) when a focus file is absolute, escapes the root or is denied.
 */
export function createRepoMapTool(options: CodeIntelligenceToolOptions) {
  const maxOutputChars = maxOutputCharsOf(options);
  return defineTool({
    name: 'repo_map',
    description:
      'A ranked overview of the repository that fits a token budget: the most depended-on files with their key ' +
      'symbol signatures (line: signature). Start here in an unfamiliar repo; pass focus_files / focus_symbols ' +
      'to center it on what you are working on.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async (input, context) => {
      const requested = input.max_tokens ?? 1024;
      const maxTokens = Math.min(requested, Math.floor(maxOutputChars / 4));
      const budget =
        maxTokens < requested
          ? `budget ${maxTokens}: max_tokens ${requested} is limited by the ${maxOutputChars}-character output cap`
          : `budget ${maxTokens}`;
      const header = (map: {
        readonly files: readonly unknown[];
        readonly estimatedTokens: number;
        readonly totals: { readonly files: number; readonly definitions: number };
        readonly shownDefinitions: number;
      }): string =>
        `Repo map: ${map.files.length} of ${map.totals.files} ranked files, signatures of the top ${map.shownDefinitions} of ` +
        `${map.totals.definitions} ranked definitions, ~${map.estimatedTokens} tokens (${budget}; 1 token ~ 4 characters). ` +
        `${map.files.length < map.totals.files || map.shownDefinitions < map.totals.definitions ? 'Raise max_tokens or pass focus_files / focus_symbols to see more. ' : ''}` +
        'Format: path, then line: signature.';
      const reserve =
        estimateTokens(
          header({
            files: new Array<never>(99_999),
            estimatedTokens: 99_999,
            totals: { files: 999_999, definitions: 999_999 },
            shownDefinitions: 99_999,
          }),
        ) + 1;
      const map = await options.index.repoMap({
        maxTokens: Math.max(16, maxTokens - reserve),
        ...(input.focus_files === undefined ? {} : { focusFiles: input.focus_files }),
        ...(input.focus_symbols === undefined ? {} : { focusSymbols: input.focus_symbols }),
        signal: context?.signal,
      });
      if (map.text === '') return 'The repository has no source files the index understands.';
      const lines = [header(map)];
      if (map.unknownFocusFiles.length > 0) {
        lines.push(
          `[Focus files not in the index, ignored: ${map.unknownFocusFiles.join(', ')}. ` +
            'Pass existing source files (call list_files to see them).]',
        );
      }
      lines.push(map.text);
      return truncateOutput(lines.join('\n'), maxOutputChars, 'Lower max_tokens or pass focus_files.');
    },
  });
}
