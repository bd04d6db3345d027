import type { ParsedFile } from './code-symbol.js';
import { parseWithFallback } from './fallback-symbols.js';
import { languageOf, scriptKindOf } from './languages.js';
import { loadCodeIndexEngine } from './load-code-index-engine.js';
import { parseWithGrammar } from './tree-sitter/tree-sitter-languages.js';

/**
 * Parses one file: symbols, imports, exports and identifier references. JS/TS files go
 * through `ts.createSourceFile` (the compiler loads on the first of them); Python, Go, Rust,
 * Java, C and C++ through their tree-sitter grammars (loaded on the first file of each); other
 * known languages through the regex fallback. Returns `undefined` for files in no supported language.
 */
export async function parseFile(path: string, text: string): Promise<ParsedFile | undefined> {
  const language = languageOf(path);
  if (language === undefined) return undefined;
  const scriptKind = scriptKindOf(path);
  if (scriptKind === undefined)
    return (await parseWithGrammar(language, path, text)) ?? parseWithFallback(path, text, language);
  return (await loadCodeIndexEngine()).parseScript(path, text, language, scriptKind);
}
