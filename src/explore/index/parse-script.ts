import ts from 'typescript';
import type { ExportRecord, ParsedFile } from './code-symbol.js';
import { collectImports, collectReExports } from './imports.js';
import { collectSymbols } from './symbols.js';
import { collectIdentifierReferences } from './identifier-references.js';
import type { ScriptKindName } from './languages.js';

function countLines(text: string): number {
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** Parses a JS/TS file with `ts.createSourceFile`: symbols, imports, exports and identifier references. */
export function parseScript(
  path: string,
  text: string,
  language: string,
  scriptKind: ScriptKindName,
): ParsedFile {
  // JSDoc is not needed for symbols or imports, and skipping it makes parsing about 3x faster.
  const sourceFile = ts.createSourceFile(
    path,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    true,
    ts.ScriptKind[scriptKind],
  );
  const symbols = collectSymbols(sourceFile);
  const exports: ExportRecord[] = [];
  for (const symbol of symbols) {
    if (!symbol.exported) continue;
    const name = symbol.isDefault ? 'default' : symbol.name;
    exports.push({ name, ...(name === symbol.name ? {} : { local: symbol.name }), line: symbol.startLine });
  }
  exports.push(...collectReExports(sourceFile));
  return {
    path,
    engine: 'typescript',
    language,
    lineCount: countLines(text),
    symbols,
    imports: collectImports(sourceFile),
    exports: exports.sort((left, right) => left.line - right.line),
    references: collectIdentifierReferences(sourceFile),
  };
}
