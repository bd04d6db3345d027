import type { Node } from 'web-tree-sitter';
import type { ImportRecord } from '../../code-symbol.js';
import type { LanguageSpec } from '../language-spec.js';
import { lineOfNode, namedChildrenOf } from '../language-spec.js';

const functionDeclarator = (name: string): string =>
  `[(function_declarator declarator: ${name}) (pointer_declarator declarator: (function_declarator declarator: ${name})) (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: ${name})))]`;

const cTags = `
(function_definition declarator: ${functionDeclarator('(identifier) @name')}) @definition.function
(declaration declarator: ${functionDeclarator('(identifier) @name')}) @definition.function
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.macro
(field_declaration declarator: (field_identifier) @name) @definition.field
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
`;

const cppTags = `${cTags}
(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(namespace_definition name: (namespace_identifier) @name) @definition.namespace
(alias_declaration name: (type_identifier) @name) @definition.type
(function_definition declarator: ${functionDeclarator('(field_identifier) @name')}) @definition.function
(field_declaration declarator: ${functionDeclarator('(field_identifier) @name')}) @definition.function
(function_definition declarator: ${functionDeclarator('(qualified_identifier scope: (_) @receiver name: [(identifier) (destructor_name)] @name)')}) @definition.method
(function_definition declarator: ${functionDeclarator('(qualified_identifier name: (qualified_identifier scope: (_) @receiver name: [(identifier) (destructor_name)] @name))')}) @definition.method
(function_definition declarator: (function_declarator declarator: (destructor_name) @name)) @definition.function
(declaration declarator: (function_declarator declarator: (destructor_name) @name)) @definition.function
`;

function collectIncludes(nodes: readonly Node[]): ImportRecord[] {
  return nodes.flatMap((node): ImportRecord[] => {
    const path = node.childForFieldName('path');
    if (path === null) return [];
    // `"local.h"` is kept bare; `<system.h>` keeps its brackets, as the resolver tells them apart.
    const specifier = path.type === 'string_literal' ? path.text.replace(/^"|"$/g, '') : path.text;
    return [{ specifier, type: 'import', names: ['*'], line: lineOfNode(node), typeOnly: false }];
  });
}

const isExported = (declaration: Node): boolean =>
  !namedChildrenOf(declaration).some(
    (child) => child.type === 'storage_class_specifier' && child.text === 'static',
  );

/** C through tree-sitter-c: functions (definitions and prototypes), structs, unions, enums, typedefs, macros, fields, globals; `#include`s. */
export const c: LanguageSpec = {
  language: 'c',
  grammarPackage: 'tree-sitter-c',
  wasmFile: 'tree-sitter-c.wasm',
  tagsQuery: cTags,
  identifierTypes: ['identifier', 'type_identifier', 'field_identifier'],
  isExported,
  importTypes: ['preproc_include'],
  collectImports: collectIncludes,
};

/** C++ through tree-sitter-cpp: C's symbols plus classes, namespaces, member functions (in-class and `Type::name` out of class), `using` aliases. */
export const cpp: LanguageSpec = {
  language: 'cpp',
  grammarPackage: 'tree-sitter-cpp',
  wasmFile: 'tree-sitter-cpp.wasm',
  tagsQuery: cppTags,
  identifierTypes: ['identifier', 'type_identifier', 'field_identifier', 'namespace_identifier'],
  isExported,
  importTypes: ['preproc_include'],
  collectImports: collectIncludes,
};
