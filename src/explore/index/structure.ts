import type { ExportRecord, ImportRecord, ParsedFile, SymbolKind } from './code-symbol.js';

/** A member in the outline: a method, a field, a nested class or function, with its own members. */
export interface OutlineMember {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly signature: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly members?: readonly OutlineMember[];
}

/** One outline entry: a top-level declaration and, for classes and the like, its members (nested as declared). */
export interface OutlineEntry extends OutlineMember {
  readonly exported: boolean;
  readonly isDefault?: boolean;
}

/** A file's outline plus a summary of what it imports and exports. */
export interface FileStructure {
  readonly path: string;
  readonly language: string;
  readonly engine: ParsedFile['engine'];
  /** Why the file was parsed with less than its engine's best, when it was. */
  readonly notice?: string;
  readonly lineCount: number;
  readonly outline: readonly OutlineEntry[];
  readonly imports: readonly Pick<ImportRecord, 'specifier' | 'names' | 'line' | 'resolved'>[];
  readonly exports: readonly ExportRecord[];
}

interface MutableMember {
  name: string;
  kind: SymbolKind;
  signature: string;
  startLine: number;
  endLine: number;
  exported?: boolean;
  isDefault?: boolean;
  members: MutableMember[];
}

function freeze(entry: MutableMember): OutlineMember {
  const { members, exported: _exported, isDefault: _isDefault, ...rest } = entry;
  return members.length === 0 ? rest : { ...rest, members: members.map(freeze) };
}

/**
 * Builds the outline (classes → members → nested members, in source order) and import/export
 * summary of a parsed file. A symbol's `container` is its parent's qualified name (`Outer.Inner`);
 * members of a container the file does not declare (a Go method of a type declared in another
 * file, a Rust `impl` of a foreign type) are grouped under an entry of that name.
 */
export function buildStructure(file: ParsedFile, imports: readonly ImportRecord[]): FileStructure {
  const roots: MutableMember[] = [];
  const byQualifiedName = new Map<string, MutableMember>();
  for (const symbol of file.symbols) {
    const { name, kind, signature, startLine, endLine } = symbol;
    const entry: MutableMember = { name, kind, signature, startLine, endLine, members: [] };
    const qualified = symbol.container === undefined ? name : `${symbol.container}.${name}`;
    if (!byQualifiedName.has(qualified)) byQualifiedName.set(qualified, entry);
    if (symbol.container === undefined) {
      entry.exported = symbol.exported;
      if (symbol.isDefault) entry.isDefault = true;
      roots.push(entry);
      continue;
    }
    let parent = byQualifiedName.get(symbol.container);
    if (parent === undefined) {
      parent = {
        name: symbol.container,
        kind: 'class',
        signature: symbol.container,
        startLine,
        endLine,
        exported: false,
        members: [],
      };
      byQualifiedName.set(symbol.container, parent);
      roots.push(parent);
    }
    parent.members.push(entry);
    parent.startLine = Math.min(parent.startLine, startLine);
    parent.endLine = Math.max(parent.endLine, endLine);
  }
  roots.sort((left, right) => left.startLine - right.startLine);
  const withMembers: OutlineEntry[] = roots.map((root) => ({
    ...freeze(root),
    exported: root.exported ?? false,
    ...(root.isDefault ? { isDefault: true } : {}),
  }));
  return {
    path: file.path,
    language: file.language,
    engine: file.engine,
    ...(file.notice === undefined ? {} : { notice: file.notice }),
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
