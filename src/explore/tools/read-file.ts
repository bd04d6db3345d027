import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import { resolveCodeToolLimits } from '../code-tool-limits.js';
import type { CodeToolFactoryOptions } from '../code-tool-limits.js';
import { FileReadError } from '../errors/file-read-error.js';
import { suggestPaths } from './suggest-paths.js';

/**
 * Lines shown when the model gives no `end_line`. SWE-agent shows 100 lines, which costs
 * many scroll calls on real files; Codex and Claude Code show 2000, about 25k tokens a call,
 * mostly unread. 400 lines (about 4-6k tokens) covers most source files and any single
 * function whole, and the footer tells the model how to read on.
 */
export const defaultReadWindowLines = 400;
/** The most lines one call returns even when the model asks for more. */
export const maxReadWindowLines = 2000;
/** Lines longer than this are cut with a marker (minified bundles, data files). */
export const maxLineChars = 2000;

const parameters = z.object({
  path: z.string().describe('File to read, relative to the repository root, e.g. "src/index.ts".'),
  start_line: z.number().int().min(1).optional().describe('First line to show (1-based). Default 1.'),
  end_line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Last line to show, inclusive. Default start_line + ${defaultReadWindowLines - 1}.`),
});

/**
 * Creates the `read_file` tool: numbered lines under a header naming the path and its
 * line count, a window of {@link defaultReadWindowLines} lines by default, with a footer
 * saying how to read on. Any file size works (one streaming pass); binaries are refused;
 * a missing path gets the closest existing paths.
 */
export function createReadFileTool(options: CodeToolFactoryOptions) {
  const { sandbox } = options;
  const limits = resolveCodeToolLimits(options);
  return defineTool({
    name: 'read_file',
    description:
      `Read a text file with line numbers. Shows ${defaultReadWindowLines} lines from start_line by default; ` +
      'pass start_line and end_line to read a specific range (e.g. around a line that search_text found).',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async (input, context) => {
      const startLine = input.start_line ?? 1;
      const endLine = input.end_line ?? startLine + defaultReadWindowLines - 1;
      if (endLine < startLine) {
        throw new Error(
          `end_line (${endLine}) is before start_line (${startLine}); pass end_line >= start_line.`,
        );
      }
      let window;
      try {
        window = await sandbox.readLines(input.path, {
          startLine,
          endLine: Math.min(endLine, startLine + maxReadWindowLines - 1),
          maxLineChars,
          ...(context?.signal === undefined ? {} : { signal: context.signal }),
        });
      } catch (error) {
        if (error instanceof FileReadError && error.code === 'file_not_found') {
          const suggestions = await suggestPaths(sandbox, input.path);
          const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '';
          throw new Error(
            `File not found: "${input.path}".${hint} Call list_files to see which files exist.`,
            { cause: error },
          );
        }
        throw error;
      }
      const { totalLines, path } = window;
      const header = `File: ${path} (${totalLines} ${totalLines === 1 ? 'line' : 'lines'})`;
      if (totalLines === 0) return `${header}\n(empty file)`;
      if (startLine > totalLines) {
        throw new Error(
          `start_line ${startLine} is past the end of "${path}", which has ${totalLines} lines.`,
        );
      }
      const width = String(Math.min(endLine, totalLines)).length;
      const body: string[] = [];
      let size = header.length;
      let lastShown = startLine - 1;
      for (const line of window.lines) {
        const marker = line.cutBytes > 0 ? ` … [line cut: ${line.cutBytes} more bytes]` : '';
        const text = `${String(lastShown + 1).padStart(width)}\t${line.text}${marker}`;
        if (size + text.length + 1 > limits.maxOutputChars && body.length > 0) break;
        body.push(text);
        size += text.length + 1;
        lastShown += 1;
      }
      const footer =
        lastShown < totalLines
          ? `\n[Showing lines ${startLine}-${lastShown} of ${totalLines}. To read on, call read_file with start_line=${lastShown + 1}.]`
          : '';
      return `${header}\n${body.join('\n')}${footer}`;
    },
  });
}
