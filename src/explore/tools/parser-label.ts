import type { ParsedFile } from '../index/code-symbol.js';

/** How a file was parsed, as the code tools say it: `TypeScript parser`, `tree-sitter grammar`, `pattern fallback, approximate`. */
export function parserLabel(engine: ParsedFile['engine']): string {
  if (engine === 'typescript') return 'TypeScript parser';
  if (engine === 'tree-sitter') return 'tree-sitter grammar';
  return 'pattern fallback, approximate';
}
