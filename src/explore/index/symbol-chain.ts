import ts from 'typescript';

/** Hops followed at most from a use to its declaration (a re-export chain through barrels). */
const maxHops = 16;

function innermostNode(node: ts.Node, position: number): ts.Node {
  const contains = (candidate: ts.Node): ts.Node | undefined =>
    candidate.pos <= position && position < candidate.end ? candidate : undefined;
  // JSDoc (`@param {Type}`, `@import`) is no child of its node, yet the compiler resolves its
  // names. It is asked first: the node's first child (`async`, a name) spans the same leading trivia.
  const child =
    (node as { readonly jsDoc?: readonly ts.JSDoc[] }).jsDoc?.find(contains) ?? node.forEachChild(contains);
  return child === undefined ? node : innermostNode(child, position);
}

/** The identifier (or `#private` name) starting at `position`, or `undefined`. */
export function identifierAt(
  sourceFile: ts.SourceFile,
  position: number,
): ts.Identifier | ts.PrivateIdentifier | undefined {
  const node = innermostNode(sourceFile, position);
  if (!ts.isIdentifier(node) && !ts.isPrivateIdentifier(node)) return undefined;
  return node.getStart(sourceFile) === position ? node : undefined;
}

function skipParentheses(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current)
  )
    current = current.expression;
  return current;
}

/** The symbol an expression names when it is a name (`fn`, `utils.fn`, `require('./x').fn`). */
function symbolOfEntity(checker: ts.TypeChecker, expression: ts.Expression): ts.Symbol | undefined {
  const target = skipParentheses(expression);
  if (ts.isIdentifier(target)) return checker.getSymbolAtLocation(target);
  if (ts.isPropertyAccessExpression(target)) return checker.getSymbolAtLocation(target.name);
  return undefined;
}

/**
 * One hop from a symbol toward the declaration it stands for: an alias (import, re-export,
 * `const { x } = require()`, `export =`) to its target; a property of an export object
 * (`module.exports = { fn }`, `{ key: utils.fn }`) or an `exports.x = fn` assignment to the
 * value it holds.
 */
function nextHop(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol | undefined {
  if ((symbol.flags & ts.SymbolFlags.Alias) !== 0) {
    const target = checker.getImmediateAliasedSymbol(symbol) ?? checker.getAliasedSymbol(symbol);
    // An alias that resolves nowhere (a third-party package) yields the checker's `unknown` symbol.
    return target === symbol || (target.declarations ?? []).length === 0 ? undefined : target;
  }
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (declaration === undefined) return undefined;
  if (ts.isShorthandPropertyAssignment(declaration))
    return checker.getShorthandAssignmentValueSymbol(declaration);
  if (ts.isPropertyAssignment(declaration)) return symbolOfEntity(checker, declaration.initializer);
  if (ts.isExportAssignment(declaration)) return symbolOfEntity(checker, declaration.expression);
  const assignment = ts.isBinaryExpression(declaration) ? declaration : declaration.parent;
  if (
    assignment !== undefined &&
    ts.isBinaryExpression(assignment) &&
    assignment.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    (assignment === declaration || assignment.left === (declaration as ts.Node))
  )
    return symbolOfEntity(checker, assignment.right);
  return undefined;
}

/**
 * The symbols from `symbol` to the declaration it stands for, in order (the first is `symbol`
 * itself): aliases, re-exports and export objects followed (see `nextHop`), cycles cut.
 */
export function symbolChain(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol[] {
  const chain = [symbol];
  for (let hop = 0; hop < maxHops; hop += 1) {
    const last = chain[chain.length - 1];
    let next: ts.Symbol | undefined;
    try {
      next = last === undefined ? undefined : nextHop(checker, last);
    } catch {
      next = undefined; // the checker gave up on a malformed file: stop at what is known
    }
    if (next === undefined || chain.includes(next)) break;
    chain.push(next);
  }
  return chain;
}

function isExpandoAssignment(declaration: ts.Declaration): boolean {
  return (
    ts.isIdentifier(declaration) ||
    ts.isPropertyAccessExpression(declaration) ||
    ts.isElementAccessExpression(declaration) ||
    ts.isBinaryExpression(declaration)
  );
}

/** True for a declaration written in a JSDoc comment (`@typedef`, `@property`, `@callback`). */
export function isJsDocDeclaration(declaration: ts.Declaration): boolean {
  for (let node: ts.Node | undefined = declaration; node !== undefined; node = node.parent)
    if (ts.isJSDoc(node) || ts.isJSDocTypedefTag(node) || ts.isJSDocPropertyLikeTag(node)) return true;
  return false;
}

/**
 * The declarations a chain ends on: those of its last symbol that are code (JSDoc tags only
 * when nothing else declares it), or an earlier hop's when the last has none.
 */
export function chainDeclarations(chain: readonly ts.Symbol[]): ts.Declaration[] {
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const declarations = chain[index]?.declarations ?? [];
    const code = declarations.filter((declaration) => !isJsDocDeclaration(declaration));
    // `Fn.helper = ...` adds an expando declaration to Fn's symbol: Fn is declared by `function Fn`.
    const primary = code.filter((declaration) => !isExpandoAssignment(declaration));
    if (primary.length > 0) return primary;
    if (code.length > 0) return code;
  }
  return [];
}
