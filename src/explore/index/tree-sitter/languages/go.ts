import type { Node } from 'web-tree-sitter';
import type { ImportRecord } from '../../code-symbol.js';
import type { LanguageSpec } from '../language-spec.js';
import { lineOfNode } from '../language-spec.js';

const receiverType = `[(type_identifier) @receiver (pointer_type (type_identifier) @receiver) (generic_type type: (type_identifier) @receiver) (pointer_type (generic_type type: (type_identifier) @receiver))]`;

const tagsQuery = `
(function_declaration name: (identifier) @name) @definition.function
(method_declaration receiver: (parameter_list (parameter_declaration type: ${receiverType})) name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(field_declaration (field_identifier) @name) @definition.field
(method_elem name: (field_identifier) @name) @definition.method
(source_file (const_declaration (const_spec (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec (identifier) @name) @definition.variable))
`;

function importRecord(spec: Node): ImportRecord {
  const path = spec.childForFieldName('path');
  const specifier = path?.text.replace(/^["`]|["`]$/g, '') ?? '';
  const alias = spec.childForFieldName('name')?.text;
  return {
    specifier,
    type: 'import',
    names: ['*'],
    local: alias ?? specifier.slice(specifier.lastIndexOf('/') + 1),
    line: lineOfNode(spec),
    typeOnly: false,
  };
}

/** Go through tree-sitter-go: functions, methods (container: the receiver type), types, struct fields, interface methods, package-level constants and variables. */
export const go: LanguageSpec = {
  language: 'go',
  grammarPackage: 'tree-sitter-go',
  wasmFile: 'tree-sitter-go.wasm',
  tagsQuery,
  identifierTypes: ['identifier', 'type_identifier', 'field_identifier', 'package_identifier'],
  isExported: (_declaration, name) => /^\p{Lu}/u.test(name),
  importTypes: ['import_spec'],
  collectImports: (nodes) => nodes.map(importRecord),
};
