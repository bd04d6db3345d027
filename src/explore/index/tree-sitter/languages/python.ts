import type { Node } from 'web-tree-sitter';
import type { ImportRecord } from '../../code-symbol.js';
import type { LanguageSpec } from '../language-spec.js';
import { descendantsOf, lineOfNode, namedChildrenOf } from '../language-spec.js';
import { outlinePython } from './python-outline.js';

const tagsQuery = `
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
(module (expression_statement (assignment left: (identifier) @name) @definition.variable))
(class_definition body: (block (expression_statement (assignment left: (identifier) @name) @definition.property)))
`;

function importRecord(node: Node): ImportRecord[] {
  const line = lineOfNode(node);
  if (node.type === 'import_statement') {
    return node.childrenForFieldName('name').flatMap((child): ImportRecord[] => {
      if (child === null) return [];
      const dotted = child.type === 'aliased_import' ? child.childForFieldName('name') : child;
      const alias = child.type === 'aliased_import' ? child.childForFieldName('alias')?.text : undefined;
      const specifier = dotted?.text ?? child.text;
      const local = alias ?? specifier.split('.')[0] ?? specifier;
      return [{ specifier, type: 'import', names: ['*'], local, line, typeOnly: false }];
    });
  }
  const module = node.childForFieldName('module_name');
  if (module === null) return [];
  const names: string[] = [];
  for (const child of namedChildrenOf(node)) {
    if (child.type === 'wildcard_import') names.push('*');
  }
  for (const child of node.childrenForFieldName('name')) {
    if (child === null) continue;
    names.push(
      (child.type === 'aliased_import' ? child.childForFieldName('name') : child)?.text ?? child.text,
    );
  }
  return [{ specifier: module.text, type: 'import', names, line, typeOnly: false }];
}

/** Python through tree-sitter-python: classes, functions, methods, module variables, class attributes, imports. */
export const python: LanguageSpec = {
  language: 'python',
  grammarPackage: 'tree-sitter-python',
  wasmFile: 'tree-sitter-python.wasm',
  tagsQuery,
  identifierTypes: ['identifier'],
  isExported: (_declaration, name, publicNames) =>
    publicNames === undefined ? !name.startsWith('_') : publicNames.has(name),
  publicNames(root, text) {
    if (!text.includes('__all__')) return undefined; // most modules: no statement to look through
    for (const statement of namedChildrenOf(root)) {
      const assignment = statement.type === 'expression_statement' ? statement.namedChild(0) : null;
      if (assignment?.type !== 'assignment' || assignment.childForFieldName('left')?.text !== '__all__')
        continue;
      const value = assignment.childForFieldName('right');
      if (value === null || (value.type !== 'list' && value.type !== 'tuple')) return undefined;
      return new Set(descendantsOf(value, ['string_content']).map((content) => content.text));
    }
    return undefined;
  },
  importTypes: ['import_statement', 'import_from_statement'],
  collectImports: (nodes) => nodes.flatMap(importRecord),
  outline: outlinePython,
};
