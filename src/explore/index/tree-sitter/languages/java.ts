import type { Node } from 'web-tree-sitter';
import type { ImportRecord } from '../../code-symbol.js';
import type { LanguageSpec } from '../language-spec.js';
import { lineOfNode, namedChildrenOf } from '../language-spec.js';

const tagsQuery = `
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(annotation_type_declaration name: (identifier) @name) @definition.interface
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(field_declaration (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration (variable_declarator name: (identifier) @name)) @definition.field
(enum_constant name: (identifier) @name) @definition.field
`;

function importRecord(node: Node): ImportRecord | undefined {
  const children = namedChildrenOf(node);
  const path = children.find((child) => child.type === 'scoped_identifier' || child.type === 'identifier');
  if (path === undefined) return undefined;
  const wildcard = children.some((child) => child.type === 'asterisk');
  const isStatic = /^import\s+static\b/.test(node.text);
  const text = path.text.replace(/\s+/g, '');
  const dot = text.lastIndexOf('.');
  // `import a.b.C;` imports C from a.b; `import a.b.*;` the whole package a.b.
  const specifier = wildcard ? text : isStatic && dot !== -1 ? text.slice(0, dot) : text;
  const names = wildcard ? ['*'] : [text.slice(dot + 1)];
  return { specifier, type: 'import', names, line: lineOfNode(node), typeOnly: false };
}

/** Java through tree-sitter-java: classes, interfaces, enums, records (nested too), methods, constructors, fields; imports. */
export const java: LanguageSpec = {
  language: 'java',
  grammarPackage: 'tree-sitter-java',
  wasmFile: 'tree-sitter-java.wasm',
  tagsQuery,
  identifierTypes: ['identifier', 'type_identifier'],
  isExported: (declaration) =>
    namedChildrenOf(declaration).some((child) => child.type === 'modifiers' && /\bpublic\b/.test(child.text)),
  importTypes: ['import_declaration'],
  collectImports: (nodes) => nodes.map(importRecord).filter((record) => record !== undefined),
};
