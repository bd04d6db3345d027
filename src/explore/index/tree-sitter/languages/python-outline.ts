import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../code-symbol.js';
import type { Definition, TreePass } from '../tree-pass.js';
import { sortDefinitions } from '../tree-pass.js';
import { scanPythonNames } from './python-names.js';

/**
 * What the Python tags query finds, without running it. The query visits every node of the
 * tree (1.3 million on pip) to find a few thousand; here a scan of the text
 * ({@link scanPythonNames}) gives the identifiers and the place of every `class`, `def` and
 * `import` keyword, each asks the tree for its statement, and the module's and class bodies'
 * statements give the assignments. Returns `undefined` for a tree with errors: error recovery
 * can put a definition anywhere, so the query looks everywhere for those.
 */
export function outlinePython(root: Node, text: string): TreePass | undefined {
  if (root.hasError) return undefined;
  const { names, statementKeywords } = scanPythonNames(text, (start, end) => {
    const node = root.descendantForIndex(start, end);
    return node?.type === 'identifier' && node.startIndex === start;
  });
  const definitions: Definition[] = [];
  const imports: Node[] = [];

  function define(node: Node, nameNode: Node | null, kind: SymbolKind): void {
    if (nameNode?.type !== 'identifier') return;
    const nameStart = nameNode.startIndex;
    definitions.push({
      node,
      name: text.slice(nameStart, nameNode.endIndex),
      nameStart,
      kind,
      scopeOnly: false,
    });
  }

  /** `(expression_statement (assignment left: (identifier) @name))` among a body's statements. */
  function assignments(body: Node | null, kind: SymbolKind): void {
    for (const statement of body?.namedChildren ?? []) {
      if (statement?.type !== 'expression_statement') continue;
      for (const assignment of statement.namedChildren) {
        if (assignment?.type === 'assignment') define(assignment, assignment.childForFieldName('left'), kind);
      }
    }
  }

  assignments(root, 'variable');
  for (const start of statementKeywords) {
    // The keyword is an unnamed token: the smallest named node around it is its statement.
    const statement = root.namedDescendantForIndex(start, start + 1);
    const type = statement?.type;
    if (statement === null || statement.startIndex > start) continue;
    if (type === 'class_definition') {
      define(statement, statement.childForFieldName('name'), 'class');
      assignments(statement.childForFieldName('body'), 'property');
    } else if (type === 'function_definition') {
      define(statement, statement.childForFieldName('name'), 'function');
    } else if (type === 'import_statement' || type === 'import_from_statement') {
      imports.push(statement);
    }
  }
  return { definitions: sortDefinitions(definitions), names, imports };
}
