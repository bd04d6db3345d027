import ts from 'typescript';
import type { CodeSymbol, ParsedFile } from './code-symbol.js';
import type { DefinitionLocation, IndexContext } from './index-context.js';
import { kindOfElement, linesAt, positionOfName } from './index-context.js';

/** How many files using a name are followed when the name is declared nowhere (an alias). */
const maxAliasFiles = 8;

function inScope(file: ParsedFile, path: string | undefined): boolean {
  if (path === undefined || path === '' || path === '.') return true;
  const prefix = path.replace(/\/+$/, '');
  return file.path === prefix || file.path.startsWith(`${prefix}/`);
}

function matches(symbol: CodeSymbol, name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot === -1) return symbol.name === name;
  return symbol.name === name.slice(dot + 1) && symbol.container === name.slice(0, dot);
}

function sourceFileOf(context: IndexContext, path: string): ts.SourceFile | undefined {
  return context.service().getProgram()?.getSourceFile(context.host.absolute(path));
}

function fromSymbol(context: IndexContext, file: ParsedFile, symbol: CodeSymbol): DefinitionLocation {
  const sourceFile = file.engine === 'typescript' ? sourceFileOf(context, file.path) : undefined;
  const line = symbol.startLine;
  return {
    path: file.path,
    line,
    endLine: symbol.endLine,
    name: symbol.name,
    kind: symbol.kind,
    exported: symbol.exported,
    ...(symbol.container === undefined ? {} : { container: symbol.container }),
    snippet: sourceFile
      ? linesAt(sourceFile.text, line, Math.min(3, symbol.endLine - line + 1))
      : symbol.signature,
  };
}

function fromDefinitionInfo(context: IndexContext, info: ts.DefinitionInfo): DefinitionLocation | undefined {
  const path = context.host.relative(info.fileName);
  const sourceFile = sourceFileOf(context, path);
  if (sourceFile === undefined || path.startsWith('..')) return undefined;
  const line = sourceFile.getLineAndCharacterOfPosition(info.textSpan.start).line + 1;
  const symbol = context.byPath
    .get(path)
    ?.symbols.find(
      (candidate) => candidate.startLine <= line && line <= candidate.endLine && candidate.name === info.name,
    );
  const endLine = symbol?.endLine ?? line;
  const isModule = info.kind === ts.ScriptElementKind.moduleElement && info.textSpan.start === 0;
  return {
    path,
    line,
    endLine,
    // A namespace import resolves to the module itself, whose name is its absolute path.
    name: isModule ? path : info.name,
    kind: isModule ? 'module' : (symbol?.kind ?? kindOfElement(info.kind)),
    exported: symbol?.exported ?? false,
    ...(symbol?.container === undefined ? {} : { container: symbol.container }),
    snippet: linesAt(sourceFile.text, line, Math.min(3, endLine - line + 1)),
  };
}

/** Follows the first use of `name` in a JS/TS file to its declaration with the language service. */
function followUse(context: IndexContext, file: ParsedFile, name: string): DefinitionLocation[] {
  const sourceFile = sourceFileOf(context, file.path);
  if (sourceFile === undefined) return [];
  const local = name.slice(name.lastIndexOf('.') + 1);
  const text = sourceFile.text;
  for (let line = 1; line <= file.lineCount; line += 1) {
    const position = positionOfName(sourceFile, line, local);
    if (position === -1) continue;
    const infos = context.service().getDefinitionAtPosition(context.host.absolute(file.path), position) ?? [];
    const locations = infos
      .map((info) => fromDefinitionInfo(context, info))
      .filter((location) => location !== undefined);
    if (locations.length > 0 || text.length === 0) return locations;
  }
  return [];
}

function unique(locations: readonly DefinitionLocation[]): DefinitionLocation[] {
  const seen = new Set<string>();
  return locations.filter((location) => {
    const key = `${location.path}:${location.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Where `name` (or `Container.member`) is declared. Declarations in the indexed files come
 * first, exported ones before the rest. When `path` is a file that uses but does not declare
 * the name, or the name is declared nowhere (an import alias, a default export's local name),
 * the language service follows the use through re-exports and aliases to the real declaration.
 */
export function findDefinitions(context: IndexContext, name: string, path?: string): DefinitionLocation[] {
  const declared: DefinitionLocation[] = [];
  for (const file of context.files) {
    if (!inScope(file, path)) continue;
    for (const symbol of file.symbols)
      if (matches(symbol, name)) declared.push(fromSymbol(context, file, symbol));
  }
  if (declared.length > 0) {
    return unique(declared).sort((left, right) => Number(right.exported) - Number(left.exported));
  }
  const local = name.slice(name.lastIndexOf('.') + 1);
  const users = context.files.filter(
    (file) => file.engine === 'typescript' && inScope(file, path) && file.references.has(local),
  );
  const followed = users.slice(0, maxAliasFiles).flatMap((file) => followUse(context, file, name));
  return unique(followed).sort((left, right) => Number(right.exported) - Number(left.exported));
}
