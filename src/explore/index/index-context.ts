import type { CodeSymbol, ParsedFile, SymbolKind } from './code-symbol.js';
import type { ModuleResolver } from './modules/module-resolver.js';

/** What the query functions (definitions, references, graph, map) work on: one consistent snapshot. */
export interface IndexContext {
  readonly files: readonly ParsedFile[];
  readonly byPath: ReadonlyMap<string, ParsedFile>;
  /** Resolves imports of every language to repo files. */
  readonly resolver: ModuleResolver;
  /** Definitions and references through the TypeScript compiler; only when the repo has JS/TS files. */
  readonly scripts?: ScriptNavigation;
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

/** One use of a symbol. Lines and columns are 1-based. */
export interface ReferenceLocation {
  readonly line: number;
  readonly column: number;
  /** The source line, trimmed, at most 200 characters. */
  readonly text: string;
  /** True when this occurrence is a declaration of the symbol. */
  readonly isDefinition: boolean;
}

/** A reference with its file. */
export type Occurrence = ReferenceLocation & { readonly path: string };

/**
 * The JS/TS half of navigation, backed by the TypeScript compiler (the code index engine). The
 * index builds it only for a repo with JS/TS files, so a Python or Go repo never loads the compiler.
 */
export interface ScriptNavigation {
  /**
   * A declaration of a JS/TS file as a definition: the line of its name, source lines as the
   * snippet; with `followImports`, a top-level `const X = require(...)` leads to what it imports.
   */
  declared(file: ParsedFile, symbol: CodeSymbol, followImports: boolean): DefinitionLocation[];
  /** Where the uses of a bare `name` in a JS/TS file lead, as the compiler resolves them. */
  followUses(path: string, name: string, firstOnly: boolean): DefinitionLocation[];
  /** Every reference to JS/TS declarations, under `names` and the names re-exports give them. */
  references(names: ReadonlySet<string>, definitions: readonly DefinitionLocation[]): Occurrence[];
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

/** Occurrence positions of `name` as a whole word in a text. */
export function wordPositions(text: string, name: string): number[] {
  const positions: number[] = [];
  const isWord = (character: string | undefined): boolean =>
    character !== undefined && /[\w$#]/.test(character);
  for (let index = text.indexOf(name); index !== -1; index = text.indexOf(name, index + name.length)) {
    if (!isWord(text[index - 1]) && !isWord(text[index + name.length])) positions.push(index);
  }
  return positions;
}

/** A source line as a reference shows it: trimmed, at most 200 characters. */
export function clipLine(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 200 ? `${trimmed.slice(0, 197)}...` : trimmed;
}
