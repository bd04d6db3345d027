import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../code-symbol.js';

/** A declaration found in a tree: its node (the whole declaration), its name and what it is. */
export interface Definition {
  readonly node: Node;
  readonly name: string;
  /** Where the name starts (a string index): the use at that place is the declaration itself. */
  readonly nameStart: number;
  readonly kind: SymbolKind;
  /** A Rust `impl` block or similar: holds members, is no symbol. */
  readonly scopeOnly: boolean;
  readonly receiver?: string;
}

/** One identifier in code (never in a string or comment). */
export interface NameUse {
  readonly name: string;
  /** Its first character's index in the file's text. */
  readonly start: number;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units as tree-sitter counts them. */
  readonly column: number;
}

/** What one pass over a file's tree finds. */
export interface TreePass {
  /** Declarations sorted by start, enclosing ones first. */
  readonly definitions: readonly Definition[];
  /** Identifiers in source order, declarations' names included. */
  readonly names: readonly NameUse[];
  /** Import statement nodes in source order. */
  readonly imports: readonly Node[];
}

/** Sorts declarations by start, then the enclosing (longer) one first, then by name position. */
export function sortDefinitions<T extends Definition>(definitions: T[]): T[] {
  return definitions.sort(
    (left, right) =>
      left.node.startIndex - right.node.startIndex ||
      right.node.endIndex - left.node.endIndex ||
      left.nameStart - right.nameStart,
  );
}
