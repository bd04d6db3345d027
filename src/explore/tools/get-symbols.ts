import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import type { CodeIntelligenceToolOptions } from '../index/code-intelligence-tool-options.js';
import { maxOutputCharsOf } from '../index/code-intelligence-tool-options.js';
import type { CodeSymbol } from '../index/code-symbol.js';
import { truncateOutput } from './truncate-output.js';
import { parserLabel } from './parser-label.js';

const parameters = z.object({
  path: z.string().describe('Source file, relative to the repository root, e.g. "src/index.ts".'),
});

/** One symbol as a line: `kind Container.name [exported] L12-40`. */
export function formatSymbolLine(symbol: CodeSymbol): string {
  const name = symbol.container === undefined ? symbol.name : `${symbol.container}.${symbol.name}`;
  const flags = symbol.isDefault ? ' [exported default]' : symbol.exported ? ' [exported]' : '';
  const depth = symbol.container === undefined ? 0 : symbol.container.split('.').length;
  const indent = '  '.repeat(depth);
  return `${indent}${symbol.kind} ${name}${flags} L${symbol.startLine}-${symbol.endLine}`;
}

/**
 * Creates the `get_symbols` tool: the functions, classes, methods, variables and types a file
 * declares, each with its kind, exported flag and line range.
 */
export function createGetSymbolsTool(options: CodeIntelligenceToolOptions) {
  const maxOutputChars = maxOutputCharsOf(options);
  return defineTool({
    name: 'get_symbols',
    description:
      'List the symbols a source file declares (functions, classes and their methods, variables, interfaces, types) ' +
      'with kind, whether exported, and line range. JS/TS is parsed by the TypeScript compiler; Python, Go, Rust, ' +
      'Java and others by patterns. Cheaper than reading the file to find where something is.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async ({ path }) => {
      const { symbols, language, engine, path: file, notice } = await options.index.symbols(path);
      const header =
        `${file}: ${symbols.length} symbols (${language}, ${parserLabel(engine)})` +
        (notice === undefined ? '' : `\nNote: ${notice}`);
      if (symbols.length === 0)
        return `${header}. The file declares nothing at top level; read_file shows its code.`;
      const text = [header, ...symbols.map(formatSymbolLine)].join('\n');
      return truncateOutput(
        text,
        maxOutputChars,
        'Use get_structure for an outline, or read_file with a line range.',
      );
    },
  });
}
