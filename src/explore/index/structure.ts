import type { ExportRecord, ImportRecord, ParsedFile, SymbolKind } from './code-symbol.js';

/** One outline entry: a top-level declaration and, for classes and interfaces, its members. */
export interface OutlineEntry {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly exported: boolean;
  readonly isDefault?: boolean;
  readonly signature: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly members?: readonly Omit<OutlineEntry, 'members' | 'exported'>[];
}

/** A file's outline plus a summary of what it imports and exports. */
export interface FileStructure {
  readonly path: string;
  readonly language: string;
  readonly engine: ParsedFile['engine'];
  readonly lineCount: number;
  readonly outline: readonly OutlineEntry[];
  readonly imports: readonly Pick<ImportRecord, 'specifier' | 'names' | 'line' | 'resolved'>[];
  readonly exports: readonly ExportRecord[];
}

/** Builds the outline (class → members, in source order) and import/export summary of a parsed file. */
export function buildStructure(file: ParsedFile, imports: readonly ImportRecord[]): FileStructure {
  const outline: OutlineEntry[] = [];
  const byContainer = new Map<string, Omit<OutlineEntry, 'members' | 'exported'>[]>();
  for (const symbol of file.symbols) {
    const { name, kind, signature, startLine, endLine } = symbol;
    if (symbol.container !== undefined) {
      const members = byContainer.get(symbol.container) ?? [];
      members.push({ name, kind, signature, startLine, endLine });
      byContainer.set(symbol.container, members);
      continue;
    }
    outline.push({
      name,
      kind,
      exported: symbol.exported,
      ...(symbol.isDefault ? { isDefault: true } : {}),
      signature,
      startLine,
      endLine,
    });
  }
  const withMembers = outline.map((entry) => {
    const members = byContainer.get(entry.name);
    return members === undefined ? entry : { ...entry, members };
  });
  // Members of containers with no top-level entry (Rust `impl` blocks, Go methods on types elsewhere).
  const shown = new Set(outline.map((entry) => entry.name));
  for (const [container, members] of byContainer) {
    if (shown.has(container)) continue;
    const first = members[0];
    const last = members.at(-1);
    if (first === undefined || last === undefined) continue;
    withMembers.push({
      name: container,
      kind: 'class',
      exported: false,
      signature: container,
      startLine: first.startLine,
      endLine: last.endLine,
      members,
    });
  }
  withMembers.sort((left, right) => left.startLine - right.startLine);
  return {
    path: file.path,
    language: file.language,
    engine: file.engine,
    lineCount: file.lineCount,
    outline: withMembers,
    imports: imports.map(({ specifier, names, line, resolved }) => ({
      specifier,
      names,
      line,
      ...(resolved === undefined ? {} : { resolved }),
    })),
    exports: file.exports,
  };
}
