import ts from 'typescript';
import type { CodeSymbol, ParsedFile, SymbolKind } from './code-symbol.js';
import type { DefinitionLocation } from './index-context.js';
import { linesAt, wordPositions } from './index-context.js';
import type { ScriptContext } from './script-context.js';
import { lineStartsOf, positionOfName } from './script-context.js';
import { chainDeclarations, identifierAt, symbolChain } from './symbol-chain.js';

function sourceFileOf(context: ScriptContext, path: string): ts.SourceFile | undefined {
  const sourceFile = context.service().getProgram()?.getSourceFile(context.host.absolute(path));
  if (sourceFile === undefined) context.missing(path);
  return sourceFile;
}

/** A file's text as the program reads it, with its line starts, without building the program. */
function sourceTextOf(
  context: ScriptContext,
  path: string,
): Pick<ts.SourceFile, 'text' | 'getLineStarts'> | undefined {
  const text = context.host.readFile(context.host.absolute(path));
  if (text === undefined) return undefined;
  let lineStarts: readonly number[] | undefined;
  return { text, getLineStarts: () => (lineStarts ??= lineStartsOf(text)) };
}

/**
 * True when a top-level variable may be an import in disguise: only a `require` binding, a
 * CommonJS export (`exports.name = other`) or a default export is an alias to the compiler.
 */
function mayBeAlias(text: string, symbol: CodeSymbol): boolean {
  const declaration = linesAt(text, symbol.startLine, symbol.endLine - symbol.startLine + 1);
  return symbol.name === 'default' || /\b(?:require|exports)\b/.test(declaration);
}

function checkerOf(context: ScriptContext): ts.TypeChecker | undefined {
  return context.service().getProgram()?.getTypeChecker();
}

function lineOf(sourceFile: ts.SourceFile, position: number): number {
  return sourceFile.getLineAndCharacterOfPosition(position).line + 1;
}

const declarationKinds = new Map<ts.SyntaxKind, SymbolKind>([
  [ts.SyntaxKind.FunctionDeclaration, 'function'],
  [ts.SyntaxKind.FunctionExpression, 'function'],
  [ts.SyntaxKind.ArrowFunction, 'function'],
  [ts.SyntaxKind.ClassDeclaration, 'class'],
  [ts.SyntaxKind.ClassExpression, 'class'],
  [ts.SyntaxKind.MethodDeclaration, 'method'],
  [ts.SyntaxKind.MethodSignature, 'method'],
  [ts.SyntaxKind.GetAccessor, 'method'],
  [ts.SyntaxKind.SetAccessor, 'method'],
  [ts.SyntaxKind.Constructor, 'constructor'],
  [ts.SyntaxKind.PropertyDeclaration, 'property'],
  [ts.SyntaxKind.PropertySignature, 'property'],
  [ts.SyntaxKind.PropertyAssignment, 'property'],
  [ts.SyntaxKind.ShorthandPropertyAssignment, 'property'],
  [ts.SyntaxKind.InterfaceDeclaration, 'interface'],
  [ts.SyntaxKind.TypeAliasDeclaration, 'type'],
  [ts.SyntaxKind.EnumDeclaration, 'enum'],
  [ts.SyntaxKind.ModuleDeclaration, 'namespace'],
]);

function kindOfDeclaration(declaration: ts.Declaration): SymbolKind {
  if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
    const initializer = declaration.initializer;
    if (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) return 'function';
    if (ts.isClassExpression(initializer)) return 'class';
  }
  if (ts.isBinaryExpression(declaration)) {
    const right = declaration.right;
    if (ts.isArrowFunction(right) || ts.isFunctionExpression(right)) return 'function';
    if (ts.isClassExpression(right)) return 'class';
  }
  return declarationKinds.get(declaration.kind) ?? 'variable';
}

function fromSymbol(
  context: ScriptContext,
  file: ParsedFile,
  symbol: CodeSymbol,
  sourceFile: Pick<ts.SourceFile, 'text' | 'getLineStarts'> | undefined,
): DefinitionLocation {
  // The line of the name: a decorated class or method starts at its decorators.
  let line = symbol.startLine;
  if (sourceFile !== undefined) {
    for (let candidate = symbol.startLine; candidate <= symbol.endLine; candidate += 1) {
      if (positionOfName(sourceFile, candidate, symbol.name) !== -1) {
        line = candidate;
        break;
      }
    }
  }
  return {
    path: file.path,
    line,
    endLine: symbol.endLine,
    name: symbol.name,
    kind: symbol.kind,
    exported: symbol.exported,
    ...(symbol.container === undefined ? {} : { container: symbol.container }),
    snippet: sourceFile
      ? linesAt(sourceFile.text, line, Math.min(3, symbol.endLine - line + 1))
      : symbol.signature,
  };
}

/** Where a declaration found by the checker is, as a definition of the index (its symbol's range and kind when known). */
export function declarationLocation(
  context: ScriptContext,
  declaration: ts.Declaration,
): DefinitionLocation | undefined {
  const sourceFile = declaration.getSourceFile();
  const path = context.host.relative(sourceFile.fileName);
  const file = context.byPath.get(path);
  if (file === undefined) return undefined;
  if (ts.isSourceFile(declaration)) {
    // A namespace import resolves to the module itself.
    return {
      path,
      line: 1,
      endLine: file.lineCount,
      name: path,
      kind: 'module',
      exported: false,
      snippet: linesAt(sourceFile.text, 1, 3),
    };
  }
  const nameNode = ts.getNameOfDeclaration(declaration as ts.Declaration) ?? declaration;
  const line = lineOf(sourceFile, nameNode.getStart(sourceFile));
  const name =
    ts.isIdentifier(nameNode) || ts.isPrivateIdentifier(nameNode) || ts.isStringLiteral(nameNode)
      ? nameNode.text
      : nameNode.getText(sourceFile);
  const symbol = file.symbols
    .filter(
      (candidate) => candidate.name === name && candidate.startLine <= line && line <= candidate.endLine,
    )
    .sort((left, right) => right.startLine - left.startLine)[0];
  const endLine = symbol?.endLine ?? lineOf(sourceFile, declaration.getEnd());
  return {
    path,
    line,
    endLine,
    name,
    kind: symbol?.kind ?? kindOfDeclaration(declaration),
    exported: symbol?.exported ?? false,
    ...(symbol?.container === undefined ? {} : { container: symbol.container }),
    snippet: linesAt(sourceFile.text, line, Math.min(3, endLine - line + 1)),
  };
}

/** True when `node` names a declaration that stands for itself (not an import, `require` binding or shorthand property). */
function namesOwnDeclaration(node: ts.Node, symbol: ts.Symbol): boolean {
  const parent = node.parent;
  if (parent === undefined || ts.isShorthandPropertyAssignment(parent)) return false;
  // `{ Cache: require('./utils').Cache }` is an export object's entry: it stands for its value.
  if (
    ts.isPropertyAssignment(parent) &&
    (ts.isIdentifier(parent.initializer) || ts.isPropertyAccessExpression(parent.initializer))
  )
    return false;
  if ((symbol.flags & ts.SymbolFlags.Alias) !== 0) return false;
  // `utils.name` declares nothing, unless assigned (`exports.name = ...`).
  if (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) {
    const assignment = parent.parent;
    return (
      ts.isPropertyAccessExpression(parent) &&
      parent.name === node &&
      ts.isBinaryExpression(assignment) &&
      assignment.left === parent &&
      assignment.operatorToken.kind === ts.SyntaxKind.EqualsToken
    );
  }
  return ts.getNameOfDeclaration(parent as ts.Declaration) === node;
}

/**
 * The declaration a call or `new` through `node` runs (the callee's resolved signature), when
 * `node` is a callee: `f` in `f()`, `fn` in `utils.fn()`. `undefined` elsewhere.
 */
export function calledDeclaration(checker: ts.TypeChecker, node: ts.Node): ts.Declaration | undefined {
  let callee: ts.Node = node;
  if (ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) callee = node.parent;
  const call = callee.parent;
  if (
    call === undefined ||
    !(ts.isCallExpression(call) || ts.isNewExpression(call)) ||
    call.expression !== callee
  )
    return undefined;
  try {
    const declaration = checker.getResolvedSignature(call)?.declaration;
    return declaration === undefined || ts.isJSDocSignature(declaration) ? undefined : declaration;
  } catch {
    return undefined;
  }
}

/** True when `node` is the name of a member: `x.name`, `{ name: ... }`, a class or interface member. */
function isMemberName(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return true;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return true;
  return (
    (ts.isClassElement(parent) || ts.isTypeElement(parent)) && (parent as ts.NamedDeclaration).name === node
  );
}

/**
 * Where the uses of a bare `name` in one JS/TS file lead, as the compiler resolves them:
 * through imports, `require` bindings, re-exports and export objects to the declarations.
 * Bare identifiers are asked first, so a call of an imported function is not taken for a
 * same-named method the file declares; member names (`utils.name`, `{ name: ... }`) only
 * when no bare identifier resolves.
 */
export function followUsesInFile(
  context: ScriptContext,
  path: string,
  name: string,
  firstOnly: boolean,
): DefinitionLocation[] {
  const sourceFile = sourceFileOf(context, path);
  const checker = checkerOf(context);
  if (sourceFile === undefined || checker === undefined) return [];
  const nodes = wordPositions(sourceFile.text, name)
    .map((position) => identifierAt(sourceFile, position))
    .filter((node) => node !== undefined && node.text === name);
  for (const members of [false, true]) {
    const locations: DefinitionLocation[] = [];
    for (const node of nodes) {
      if (node === undefined || isMemberName(node) !== members) continue;
      const symbol = checker.getSymbolAtLocation(node);
      if (symbol === undefined) continue;
      const chain = namesOwnDeclaration(node, symbol) ? [symbol] : symbolChain(checker, symbol);
      // A call also leads to the function it calls (`const f = utils.fn; f()`), as go to definition shows.
      const called = calledDeclaration(checker, node);
      for (const declaration of [...chainDeclarations(chain), ...(called === undefined ? [] : [called])]) {
        const location = declarationLocation(context, declaration);
        if (location !== undefined) locations.push(location);
      }
      if (firstOnly && locations.length > 0) break;
    }
    if (locations.length > 0) return locations;
  }
  return [];
}

/**
 * A declaration of a JS/TS file as a definition (the line of its name, source lines as the
 * snippet); with `followImports`, a top-level symbol that is an import in disguise
 * (`const X = require('./x')`) resolved to what it imports.
 */
export function scriptDeclared(
  context: ScriptContext,
  file: ParsedFile,
  symbol: CodeSymbol,
  followImports: boolean,
): DefinitionLocation[] {
  // The file's text alone places a declaration; the program is built only for what may be an alias.
  const text = sourceTextOf(context, file.path);
  const location = fromSymbol(context, file, symbol, text);
  if (!followImports || symbol.container !== undefined || symbol.kind !== 'variable') return [location];
  if (text === undefined || !mayBeAlias(text.text, symbol)) return [location];
  const sourceFile = sourceFileOf(context, file.path);
  const checker = checkerOf(context);
  const position = sourceFile === undefined ? -1 : positionOfName(sourceFile, location.line, symbol.name);
  const node = sourceFile === undefined || position === -1 ? undefined : identifierAt(sourceFile, position);
  const alias = node === undefined ? undefined : checker?.getSymbolAtLocation(node);
  if (checker === undefined || alias === undefined || (alias.flags & ts.SymbolFlags.Alias) === 0)
    return [location];
  const resolved = chainDeclarations(symbolChain(checker, alias))
    .map((declaration) => declarationLocation(context, declaration))
    .filter((found) => found !== undefined);
  return resolved.length > 0 ? resolved : [location];
}
