import type { Node, Query } from 'web-tree-sitter';
import type { CodeSymbol, ExportRecord, ParsedFile, SymbolKind } from '../code-symbol.js';
import type { LanguageSpec } from './language-spec.js';
import type { Definition, NameUse, TreePass } from './tree-pass.js';
import { sortDefinitions } from './tree-pass.js';
import type { LoadedGrammar } from './tree-sitter-runtime.js';
import { compileQuery } from './tree-sitter-runtime.js';

/** A language's query, compiled: one pass over a tree finds declarations, names and imports. */
export interface TagsQuery {
  /**
   * The tags patterns, then one pattern per identifier type (`@identifier`) and per import
   * statement type (`@import`).
   */
  readonly query: Query | undefined;
  /** Whether any tags pattern compiled: without one the file falls back to patterns. */
  readonly hasTags: boolean;
  /** Set when patterns were dropped or a query failed: shown with the symbols of files it read. */
  readonly notice?: string;
}

/** A grammar with what the index runs on every file of its language. */
export interface PreparedLanguage {
  readonly spec: LanguageSpec;
  readonly grammar: LoadedGrammar;
  /**
   * The query, compiled on first use (about 30 ms for Python): a language whose outline reads
   * every file (Python without syntax errors) never needs it.
   */
  tags(): TagsQuery;
}

/** Prepares a language; its query is compiled once, when first needed, dropping (and reporting) patterns its grammar rejects. */
export function prepareLanguage(spec: LanguageSpec, grammar: LoadedGrammar): PreparedLanguage {
  let compiled: TagsQuery | undefined;
  return { spec, grammar, tags: () => (compiled ??= compileTags(spec, grammar)) };
}

function compileTags(spec: LanguageSpec, grammar: LoadedGrammar): TagsQuery {
  const { query, dropped } = compileQuery(
    grammar,
    [
      spec.tagsQuery,
      ...spec.identifierTypes.map((type) => `(${type}) @identifier`),
      ...spec.importTypes.map((type) => `(${type}) @import`),
    ].join('\n'),
  );
  const hasTags =
    query?.captureNames.some((name) => name.startsWith('definition.') || name.startsWith('scope.')) === true;
  const notice = !hasTags
    ? `the ${spec.language} tags query does not compile against the installed "${spec.grammarPackage}" (${dropped[0] ?? 'unknown error'}); no symbols from it`
    : dropped.length > 0
      ? `${dropped.length} ${spec.language} query pattern(s) do not fit the installed "${spec.grammarPackage}" and were skipped, so some declarations may be missing (${dropped[0] ?? ''})`
      : undefined;
  return { query, hasTags, ...(notice === undefined ? {} : { notice }) };
}

const kindsByCapture = new Map<string, SymbolKind>([
  ['function', 'function'],
  ['method', 'method'],
  ['class', 'class'],
  ['interface', 'interface'],
  ['type', 'type'],
  ['struct', 'struct'],
  ['enum', 'enum'],
  ['trait', 'trait'],
  ['module', 'module'],
  ['namespace', 'namespace'],
  ['constant', 'variable'],
  ['variable', 'variable'],
  ['field', 'property'],
  ['property', 'property'],
  ['constructor', 'constructor'],
  ['macro', 'function'],
]);
const memberHolders = new Set<SymbolKind>(['class', 'struct', 'interface', 'trait', 'enum']);
const maxSignatureLength = 160;

/** The end of a node's code: trailing comments inside it (a Python block's last lines) are not part of it. */
function codeEnd(node: Node): Node['endPosition'] {
  let current = node;
  for (;;) {
    let last: Node | null = null;
    for (let index = current.childCount - 1; index >= 0; index -= 1) {
      const child = current.child(index);
      if (
        child !== null &&
        child.type !== 'comment' &&
        child.type !== 'line_comment' &&
        child.type !== 'block_comment'
      ) {
        last = child;
        break;
      }
    }
    if (last === null) return current.endPosition;
    current = last;
  }
}

/**
 * Whether a node can end in a comment. Every comment of the six languages (`#`, `//`, block
 * comments) has `#` or `/` on its last line, unless a C `//` comment goes on past a line ending
 * in a backslash. So a node whose last line has neither, after a line not ending in a backslash,
 * ends in code: its own end is its code's end, with no walk down its last children.
 */
function mayEndInComment(node: Node, endIndex: number, text: string): boolean {
  let last = endIndex;
  while (last > node.startIndex && (text[last - 1] === '\n' || text[last - 1] === '\r')) last -= 1;
  const lineStart = Math.max(node.startIndex, text.lastIndexOf('\n', last - 1) + 1);
  if (lineStart > node.startIndex && /\\\r?\n$/.test(text.slice(Math.max(0, lineStart - 3), lineStart)))
    return true;
  for (let index = lineStart; index < endIndex; index += 1) {
    const char = text[index];
    if (char === '#' || char === '/') return true;
  }
  return false;
}

function endLineOf(node: Node, text: string): number {
  const end = mayEndInComment(node, node.endIndex, text) ? codeEnd(node) : node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

function signatureOf(node: Node, bodyField: string | undefined, text: string): string {
  const body = node.childForFieldName(bodyField ?? 'body');
  const end =
    body !== null && body.startIndex > node.startIndex
      ? body.startIndex
      : text.indexOf('\n', node.startIndex);
  const header = text.slice(node.startIndex, end === -1 ? node.endIndex : Math.min(end, node.endIndex));
  const flat = header
    .replace(/\s+/g, ' ')
    .replace(/[\s{:]+$/, '')
    .trim();
  return flat.length > maxSignatureLength ? `${flat.slice(0, maxSignatureLength - 3)}...` : flat;
}

/** Strips generics and pointers from a receiver or impl type: `*Server[T]` → `Server`, `Vec<T>` → `Vec`. */
function typeName(text: string): string {
  const match = /[A-Za-z_][\w]*(?=\s*(?:<|\[|$))/.exec(
    text.replace(/^[\s*&]+|\s+$/g, '').replace(/^(?:mut\s+|dyn\s+)/, ''),
  );
  return match?.[0] ?? text.trim();
}

function runQuery(query: Query | undefined, root: Node): TreePass {
  // Keyed by node and name: one Go `const a, b = ...` spec declares two names. When two
  // patterns match one declaration (a struct and any type), the earlier pattern wins.
  const definitions = new Map<string, Definition & { readonly pattern: number }>();
  const names: NameUse[] = [];
  const imports: Node[] = [];
  for (const match of query?.matches(root) ?? []) {
    const first = match.captures[0];
    if (first?.name === 'identifier') {
      const { startIndex, startPosition } = first.node;
      names.push({
        name: first.node.text,
        start: startIndex,
        line: startPosition.row + 1,
        column: startPosition.column + 1,
      });
      continue;
    }
    if (first?.name === 'import') {
      imports.push(first.node);
      continue;
    }
    let node: Node | undefined;
    let kind: SymbolKind | undefined;
    let scopeOnly = false;
    let receiver: string | undefined;
    const nameNodes: Node[] = [];
    for (const capture of match.captures) {
      if (capture.name === 'name') nameNodes.push(capture.node);
      else if (capture.name === 'receiver') receiver = typeName(capture.node.text);
      else if (capture.name.startsWith('definition.')) {
        node = capture.node;
        kind = kindsByCapture.get(capture.name.slice('definition.'.length));
      } else if (capture.name.startsWith('scope.')) {
        node = capture.node;
        kind = 'class';
        scopeOnly = true;
      }
    }
    if (node === undefined || kind === undefined) continue;
    for (const nameNode of nameNodes) {
      const key = `${node.id}:${nameNode.startIndex}`;
      const existing = definitions.get(key);
      if (existing !== undefined && existing.pattern <= match.patternIndex) continue;
      definitions.set(key, {
        node,
        name: scopeOnly ? typeName(nameNode.text) : nameNode.text,
        nameStart: nameNode.startIndex,
        kind,
        scopeOnly,
        pattern: match.patternIndex,
        ...(receiver === undefined ? {} : { receiver }),
      });
    }
  }
  return { definitions: sortDefinitions([...definitions.values()]), names, imports };
}

/**
 * Parses one file with its language's grammar: symbols from the tags query with exact line
 * ranges (trailing comments excluded) and nesting (a method's container is its class, a
 * nested function's its enclosing function, joined with `.`), imports from the language
 * spec, and every identifier outside declarations as a reference with its position. Strings
 * and comments hold no identifiers, so nothing in them is found. The language's outline reads
 * the tree when it can, else its query; `undefined` when the file needs the query and no tags
 * pattern of it compiles.
 */
export function parseWithTreeSitter(
  prepared: PreparedLanguage,
  path: string,
  text: string,
): ParsedFile | undefined {
  const { spec, grammar } = prepared;
  if (spec.outline === undefined && !prepared.tags().hasTags) return undefined;
  const tree = grammar.parser.parse(text);
  if (tree === null) throw new Error(`tree-sitter returned no tree for ${path}`);
  try {
    const root = tree.rootNode;
    const publicNames = spec.publicNames?.(root, text);
    let pass = spec.outline?.(root, text);
    let notice: string | undefined;
    if (pass === undefined) {
      const tags = prepared.tags();
      if (!tags.hasTags) return undefined;
      pass = runQuery(tags.query, root);
      notice = tags.notice;
    }
    const { definitions, names, imports } = pass;
    const symbols: CodeSymbol[] = [];
    const declarationNames = new Set<number>();
    const stack: { readonly definition: Definition; readonly qualified: string }[] = [];
    for (const definition of definitions) {
      declarationNames.add(definition.nameStart);
      // Pop what does not enclose this one; names declared by one node (`const a, b`) are siblings.
      for (
        let top = stack.at(-1)?.definition.node;
        top !== undefined && (top.endIndex <= definition.node.startIndex || top.id === definition.node.id);
        top = stack.at(-1)?.definition.node
      )
        stack.pop();
      const parent = stack.at(-1);
      // A method declared outside its type (`Type::name`, a Go receiver) belongs to that type, within any enclosing namespace.
      const container =
        definition.receiver === undefined
          ? parent?.qualified
          : parent === undefined
            ? definition.receiver
            : `${parent.qualified}.${definition.receiver}`;
      stack.push({
        definition,
        qualified: container === undefined ? definition.name : `${container}.${definition.name}`,
      });
      if (definition.scopeOnly) continue;
      const holder =
        definition.receiver !== undefined ||
        (parent !== undefined && memberHolders.has(parent.definition.kind));
      const kind = definition.kind === 'function' && holder ? 'method' : definition.kind;
      const topLevel = container === undefined;
      symbols.push({
        name: definition.name,
        kind,
        exported: topLevel && spec.isExported(definition.node, definition.name, publicNames),
        startLine: definition.node.startPosition.row + 1,
        endLine: endLineOf(definition.node, text),
        signature: signatureOf(definition.node, spec.bodyField, text),
        ...(container === undefined ? {} : { container }),
      });
    }
    const references = new Map<string, number>();
    const occurrences = new Map<string, number[]>();
    for (const { name, start, line, column } of names) {
      if (declarationNames.has(start)) continue;
      references.set(name, (references.get(name) ?? 0) + 1);
      const positions = occurrences.get(name);
      if (positions === undefined) occurrences.set(name, [line, column]);
      else positions.push(line, column);
    }
    const exports: ExportRecord[] = symbols
      .filter((symbol) => symbol.exported && symbol.container === undefined)
      .map((symbol) => ({ name: symbol.name, line: symbol.startLine }));
    return {
      path,
      engine: 'tree-sitter',
      language: spec.language,
      lineCount: root.endPosition.row + 1,
      symbols,
      imports: spec.collectImports(imports),
      exports,
      references,
      occurrences,
      ...(notice === undefined ? {} : { notice }),
    };
  } finally {
    tree.delete();
  }
}
