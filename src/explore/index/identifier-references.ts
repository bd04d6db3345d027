import ts from 'typescript';

const declarationParents = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.Parameter,
  ts.SyntaxKind.TypeParameter,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.EnumMember,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ClassExpression,
]);

/**
 * Counts the identifiers a file uses other than where it declares them: calls, property
 * accesses, type references, imported names. The repo map's reference graph is built from these.
 */
export function collectIdentifierReferences(sourceFile: ts.SourceFile): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isDeclarationName =
        declarationParents.has(parent.kind) && (parent as { name?: ts.Node }).name === node;
      if (!isDeclarationName) counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return counts;
}
