import ts from 'typescript';

const maxSignatureLength = 160;

function bodyOf(node: ts.Node): ts.Node | undefined {
  if (ts.isVariableStatement(node)) {
    const declaration = node.declarationList.declarations[0];
    return declaration === undefined ? undefined : bodyOf(declaration);
  }
  if (ts.isVariableDeclaration(node)) {
    const initializer = node.initializer;
    if (initializer && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)))
      return initializer.body;
    if (initializer && ts.isClassExpression(initializer))
      return initializer.members.pos > 0 ? initializer : undefined;
    return undefined;
  }
  if (ts.isFunctionLike(node) && 'body' in node) return (node as { body?: ts.Node }).body;
  return undefined;
}

function squeeze(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxSignatureLength ? `${flat.slice(0, maxSignatureLength - 3)}...` : flat;
}

/**
 * A one-line signature: the declaration's text up to its body (functions, classes,
 * interfaces) or its first line (everything else), whitespace squeezed, at most 160 characters.
 */
export function signatureOf(node: ts.Node, sourceFile: ts.SourceFile): string {
  const start = node.getStart(sourceFile);
  const text = sourceFile.text;
  const body = bodyOf(node);
  if (body !== undefined && !ts.isClassExpression(body)) {
    const header = text.slice(start, body.getStart(sourceFile)).replace(/\s*=>\s*$/, ' =>');
    return squeeze(header.replace(/[{\s]+$/, ''));
  }
  const braceKinds = [
    ts.SyntaxKind.ClassDeclaration,
    ts.SyntaxKind.InterfaceDeclaration,
    ts.SyntaxKind.EnumDeclaration,
  ];
  if (braceKinds.includes(node.kind) || (body !== undefined && ts.isClassExpression(body))) {
    const brace = text.indexOf('{', start);
    if (brace > start) return squeeze(text.slice(start, brace));
  }
  const lineEnd = text.indexOf('\n', start);
  const firstLine = text.slice(start, lineEnd === -1 ? node.getEnd() : Math.min(lineEnd, node.getEnd()));
  return squeeze(firstLine.replace(/[{\s]+$/, ''));
}
