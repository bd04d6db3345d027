import type { Node } from 'web-tree-sitter';
import type { ImportRecord } from '../code-symbol.js';
import type { TreePass } from './tree-pass.js';

/**
 * What the index needs to know of one language parsed by tree-sitter. The tags query follows
 * the tree-sitter tags convention: `@definition.<kind>` on the declaration node and `@name` on
 * its name. Two extra captures: `@receiver` names the type a method belongs to when it is
 * declared outside it (Go receivers, C++ `Type::method`), and `@scope.<kind>` marks a node
 * that holds members without being a symbol itself (a Rust `impl` block, its `@name` the type).
 */
export interface LanguageSpec {
  /** The index's language name, e.g. `python`. */
  readonly language: string;
  /** The npm package that ships the grammar's `.wasm`. */
  readonly grammarPackage: string;
  /** The `.wasm` file inside that package. */
  readonly wasmFile: string;
  readonly tagsQuery: string;
  /** Node types whose text is a name: the references are these, outside declarations. */
  readonly identifierTypes: readonly string[];
  /** Whether a top-level declaration is visible to other files (`pub`, capitalised, not `_private`). */
  isExported(declaration: Node, name: string, publicNames: ReadonlySet<string> | undefined): boolean;
  /** Node types of the statements that import (`import_statement`, `use_declaration`, `preproc_include`, ...). */
  readonly importTypes: readonly string[];
  /** The file's imports from its nodes of `importTypes`, given in source order. */
  collectImports(nodes: readonly Node[]): ImportRecord[];
  /** Names a module declares public when it lists them (Python's `__all__`). */
  publicNames?(root: Node, text: string): ReadonlySet<string> | undefined;
  /** The text of the declaration's header when the first line is not it (e.g. up to the body). */
  readonly bodyField?: string;
  /**
   * A cheaper way to what the query finds (declarations, identifiers, imports) in a tree, or
   * `undefined` to run the query on this one. It must give exactly what the query would.
   */
  outline?(root: Node, text: string): TreePass | undefined;
}

/** The named children of a node (web-tree-sitter's `namedChildren` without the nulls). */
export function namedChildrenOf(node: Node): Node[] {
  const children: Node[] = [];
  for (let index = 0; index < node.namedChildCount; index += 1) {
    const child = node.namedChild(index);
    if (child !== null) children.push(child);
  }
  return children;
}

/** The 1-based line of a node's first character. */
export function lineOfNode(node: Node): number {
  return node.startPosition.row + 1;
}

/** Every descendant of `root` (itself included) of one of `types`, in source order. */
export function descendantsOf(root: Node, types: readonly string[]): Node[] {
  return root.descendantsOfType([...types]).filter((node): node is Node => node !== null);
}
