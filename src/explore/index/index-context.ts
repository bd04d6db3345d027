import ts from 'typescript';
import type { ParsedFile, SymbolKind } from './code-symbol.js';
import type { IndexLanguageServiceHost } from './language-service-host.js';
import type { ModuleResolver } from './modules/module-resolver.js';

/** What the query functions (definitions, references, graph, map) work on: one consistent snapshot. */
export interface IndexContext {
  readonly files: readonly ParsedFile[];
  readonly byPath: ReadonlyMap<string, ParsedFile>;
  readonly host: IndexLanguageServiceHost;
  /** Resolves imports of every language to repo files. */
  readonly resolver: ModuleResolver;
  /** The long-lived language service, created on first use. */
  service(): ts.LanguageService;
}

/** A definition: where a name is declared. Lines are 1-based. */
export interface DefinitionLocation {
  readonly path: string;
  readonly line: number;
  readonly endLine: number;
  readonly name: string;
  readonly kind: SymbolKind;
  readonly exported: boolean;
  readonly container?: string;
  /** Up to three source lines starting at the declaration. */
  readonly snippet: string;
}

function isIdentifierCharacter(character: string | undefined): boolean {
  return character !== undefined && /[\w$]/.test(character);
}

/** Offset of `name` as a whole word in the source file's 1-based `line`, or -1. */
export function positionOfName(sourceFile: ts.SourceFile, line: number, name: string): number {
  const lineStarts = sourceFile.getLineStarts();
  const start = lineStarts[line - 1];
  if (start === undefined) return -1;
  const end = lineStarts[line] ?? sourceFile.text.length;
  const text = sourceFile.text;
  for (
    let index = text.indexOf(name, start);
    index !== -1 && index < end;
    index = text.indexOf(name, index + 1)
  ) {
    if (!isIdentifierCharacter(text[index - 1]) && !isIdentifierCharacter(text[index + name.length]))
      return index;
  }
  return -1;
}

/** Up to `count` lines of text starting at the 1-based `line`, each trimmed at the end. */
export function linesAt(text: string, line: number, count: number): string {
  const lines: string[] = [];
  let offset = 0;
  for (let current = 1; current < line && offset !== -1; current += 1)
    offset = text.indexOf('\n', offset) + 1 || -1;
  if (offset === -1) return '';
  for (let index = 0; index < count; index += 1) {
    const next = text.indexOf('\n', offset);
    lines.push(text.slice(offset, next === -1 ? undefined : next).trimEnd());
    if (next === -1) break;
    offset = next + 1;
  }
  return lines.join('\n');
}

const elementKinds = new Map<string, SymbolKind>([
  [ts.ScriptElementKind.functionElement, 'function'],
  [ts.ScriptElementKind.localFunctionElement, 'function'],
  [ts.ScriptElementKind.classElement, 'class'],
  [ts.ScriptElementKind.localClassElement, 'class'],
  [ts.ScriptElementKind.memberFunctionElement, 'method'],
  [ts.ScriptElementKind.memberVariableElement, 'property'],
  [ts.ScriptElementKind.memberGetAccessorElement, 'method'],
  [ts.ScriptElementKind.memberSetAccessorElement, 'method'],
  [ts.ScriptElementKind.constructorImplementationElement, 'constructor'],
  [ts.ScriptElementKind.interfaceElement, 'interface'],
  [ts.ScriptElementKind.typeElement, 'type'],
  [ts.ScriptElementKind.enumElement, 'enum'],
  [ts.ScriptElementKind.moduleElement, 'namespace'],
]);

/** Maps a language-service element kind to the index's kinds (`variable` for everything else). */
export function kindOfElement(kind: string): SymbolKind {
  return elementKinds.get(kind) ?? 'variable';
}
