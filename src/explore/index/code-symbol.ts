/** What a symbol is; the same words for every language. */
export type SymbolKind =
  | 'function'
  | 'class'
  | 'method'
  | 'property'
  | 'constructor'
  | 'variable'
  | 'interface'
  | 'type'
  | 'enum'
  | 'namespace'
  | 'struct'
  | 'trait'
  | 'module';

/** A named declaration in a file. Lines are 1-based and inclusive. */
export interface CodeSymbol {
  readonly name: string;
  readonly kind: SymbolKind;
  /** True when the module exports it (`export`, `export default`, `export { name }`, `module.exports`). */
  readonly exported: boolean;
  /** True when it is the module's default export. */
  readonly isDefault?: boolean;
  readonly startLine: number;
  readonly endLine: number;
  /** The declaration's first line, trimmed of its body, e.g. `function buildURL(url, params, options)`. */
  readonly signature: string;
  /** The enclosing class, interface or object for members, e.g. `Axios` for `Axios.request`. */
  readonly container?: string;
}

/** One `import`, `export ... from`, dynamic `import()` or `require()` in a file. */
export interface ImportRecord {
  readonly specifier: string;
  /** `import` (static), `export-from` (re-export), `dynamic-import` or `require`. */
  readonly type: 'import' | 'export-from' | 'dynamic-import' | 'require';
  /** Local names bound, `default`, `*` for a namespace/star, or `[] ` for a side-effect import. */
  readonly names: readonly string[];
  /** The local name a default or namespace import (or `const x = require()`) binds, e.g. `utils`. */
  readonly local?: string;
  readonly line: number;
  /** True for `import type` / `export type`. */
  readonly typeOnly: boolean;
  /**
   * The repo file the specifier resolves to (relative paths, tsconfig `paths`, workspace
   * packages, Python/Rust/Java modules, C includes) or, for a Go package, its folder.
   */
  readonly resolved?: string;
  /** Every repo file the import reaches, when that is more than `resolved` alone (a Go package's files, imported Python submodules). */
  readonly resolvedFiles?: readonly string[];
}

/** What a module exports, by exported name. */
export interface ExportRecord {
  readonly name: string;
  /** The local name when it differs, e.g. `dispatchRequest` for `export default function dispatchRequest`. */
  readonly local?: string;
  readonly line: number;
  /** The module it is re-exported from, if any. */
  readonly from?: string;
}

/** Everything the index keeps about one parsed file. */
export interface ParsedFile {
  readonly path: string;
  /** `typescript` for JS/TS parsed by the compiler, `tree-sitter` for the grammars, `regex` for the pattern fallback. */
  readonly engine: 'typescript' | 'tree-sitter' | 'regex';
  /** Why the file got less than its engine's best (a grammar missing or failing, a query pattern dropped): say it to the reader. */
  readonly notice?: string;
  readonly language: string;
  readonly lineCount: number;
  readonly symbols: readonly CodeSymbol[];
  readonly imports: readonly ImportRecord[];
  readonly exports: readonly ExportRecord[];
  /** Identifier occurrences (not declarations) with counts, for the repo map's reference graph. */
  readonly references: ReadonlyMap<string, number>;
  /** Where each identifier occurs, as flattened 1-based `line, column` pairs (tree-sitter files). */
  readonly occurrences?: ReadonlyMap<string, readonly number[]>;
}
