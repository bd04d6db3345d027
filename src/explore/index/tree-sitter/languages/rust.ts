import type { Node } from 'web-tree-sitter';
import type { ImportRecord } from '../../code-symbol.js';
import type { LanguageSpec } from '../language-spec.js';
import { lineOfNode, namedChildrenOf } from '../language-spec.js';

const tagsQuery = `
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(macro_definition name: (identifier) @name) @definition.macro
(field_declaration name: (field_identifier) @name) @definition.field
(enum_variant name: (identifier) @name) @definition.field
(impl_item type: [(type_identifier) @name (generic_type type: (type_identifier) @name) (scoped_type_identifier name: (type_identifier) @name)]) @scope.impl
`;

/** Flattens a `use` tree into records: `use a::b::{C, d::E}` → `a::b` {C}, `a::b::d` {E}. */
function useRecords(node: Node, prefix: string, line: number, records: ImportRecord[]): void {
  const join = (path: string): string => (prefix === '' ? path : `${prefix}::${path}`);
  const record = (path: string, names: string[], local?: string): void => {
    records.push({
      specifier: path,
      type: 'import',
      names,
      ...(local === undefined ? {} : { local }),
      line,
      typeOnly: false,
    });
  };
  switch (node.type) {
    case 'scoped_identifier': {
      const path = node.childForFieldName('path')?.text;
      const name = node.childForFieldName('name')?.text ?? node.text;
      if (path === undefined) record(prefix === '' ? name : prefix, prefix === '' ? [] : [name]);
      else record(join(path), [name]);
      return;
    }
    case 'identifier':
    case 'self':
    case 'crate':
    case 'super':
      if (prefix === '') record(node.text, []);
      else record(prefix, [node.text]);
      return;
    case 'use_as_clause': {
      const path = node.childForFieldName('path');
      const alias = node.childForFieldName('alias')?.text;
      if (path === null) return;
      const before = records.length;
      useRecords(path, prefix, line, records);
      const added = records[before];
      if (added !== undefined && alias !== undefined) records[before] = { ...added, local: alias };
      return;
    }
    case 'use_wildcard': {
      const path = namedChildrenOf(node)[0]?.text;
      record(path === undefined ? prefix : join(path), ['*']);
      return;
    }
    case 'scoped_use_list': {
      const path = node.childForFieldName('path')?.text;
      const list = node.childForFieldName('list');
      const nested = path === undefined ? prefix : join(path);
      for (const item of list === null ? [] : namedChildrenOf(list)) useRecords(item, nested, line, records);
      return;
    }
    case 'use_list':
      for (const item of namedChildrenOf(node)) useRecords(item, prefix, line, records);
      return;
    default:
      return;
  }
}

function collectImports(nodes: readonly Node[]): ImportRecord[] {
  const records: ImportRecord[] = [];
  for (const node of nodes) {
    const line = lineOfNode(node);
    if (node.type === 'use_declaration') {
      const argument = node.childForFieldName('argument');
      if (argument !== null) useRecords(argument, '', line, records);
    } else if (node.type === 'mod_item') {
      // `mod config;` loads config.rs or config/mod.rs; a `mod x { ... }` with a body is inline.
      const name = node.childForFieldName('name')?.text;
      if (name !== undefined && node.childForFieldName('body') === null)
        records.push({ specifier: `self::${name}`, type: 'import', names: [], line, typeOnly: false });
    } else {
      const name = node.childForFieldName('name')?.text;
      const alias = node.childForFieldName('alias')?.text;
      if (name !== undefined)
        records.push({
          specifier: name,
          type: 'import',
          names: ['*'],
          ...(alias === undefined ? {} : { local: alias }),
          line,
          typeOnly: false,
        });
    }
  }
  return records;
}

/** Rust through tree-sitter-rust: functions, methods of `impl` and `trait` blocks, structs, enums, traits, modules, constants, macros; `use`, `mod` and `extern crate`. */
export const rust: LanguageSpec = {
  language: 'rust',
  grammarPackage: 'tree-sitter-rust',
  wasmFile: 'tree-sitter-rust.wasm',
  tagsQuery,
  identifierTypes: ['identifier', 'type_identifier', 'field_identifier'],
  isExported: (declaration) =>
    namedChildrenOf(declaration).some((child) => child.type === 'visibility_modifier'),
  importTypes: ['use_declaration', 'mod_item', 'extern_crate_declaration'],
  collectImports,
};
