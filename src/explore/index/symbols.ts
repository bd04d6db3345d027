import ts from 'typescript';
import type { CodeSymbol, SymbolKind } from './code-symbol.js';
import { signatureOf } from './signature.js';

interface Collector {
  readonly sourceFile: ts.SourceFile;
  readonly symbols: CodeSymbol[];
  readonly exportedNames: Set<string>;
  defaultName?: string;
}

function lineOf(sourceFile: ts.SourceFile, position: number): number {
  return sourceFile.getLineAndCharacterOfPosition(position).line + 1;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return (
    ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((modifier) => modifier.kind === kind) ?? false)
  );
}

function add(collector: Collector, node: ts.Node, name: string, kind: SymbolKind, container?: string): void {
  const { sourceFile } = collector;
  const exported = container === undefined && hasModifier(node, ts.SyntaxKind.ExportKeyword);
  const isDefault = exported && hasModifier(node, ts.SyntaxKind.DefaultKeyword);
  collector.symbols.push({
    name,
    kind,
    exported,
    ...(isDefault ? { isDefault } : {}),
    startLine: lineOf(sourceFile, node.getStart(sourceFile)),
    endLine: lineOf(sourceFile, node.getEnd()),
    signature: signatureOf(node, sourceFile),
    ...(container === undefined ? {} : { container }),
  });
}

function memberName(member: ts.Node, sourceFile: ts.SourceFile): string | undefined {
  if (ts.isConstructorDeclaration(member)) return 'constructor';
  const name = (member as { name?: ts.PropertyName }).name;
  if (name === undefined) return undefined;
  return ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)
    ? name.text
    : name.getText(sourceFile);
}

function memberKind(member: ts.Node): SymbolKind | undefined {
  if (ts.isConstructorDeclaration(member)) return 'constructor';
  if (ts.isMethodDeclaration(member) || ts.isMethodSignature(member)) return 'method';
  if (ts.isGetAccessor(member) || ts.isSetAccessor(member)) return 'method';
  if (ts.isPropertyDeclaration(member) || ts.isPropertySignature(member)) return 'property';
  return undefined;
}

function addMembers(collector: Collector, members: ts.NodeArray<ts.Node>, container: string): void {
  for (const member of members) {
    const kind = memberKind(member);
    const name = memberName(member, collector.sourceFile);
    if (kind !== undefined && name !== undefined) add(collector, member, name, kind, container);
  }
}

function variableKind(initializer: ts.Expression | undefined): SymbolKind {
  if (initializer === undefined) return 'variable';
  if (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) return 'function';
  if (ts.isClassExpression(initializer)) return 'class';
  return 'variable';
}

function visitStatement(collector: Collector, statement: ts.Statement): void {
  const { sourceFile } = collector;
  if (ts.isFunctionDeclaration(statement)) {
    add(collector, statement, statement.name?.text ?? 'default', 'function');
  } else if (ts.isClassDeclaration(statement)) {
    const name = statement.name?.text ?? 'default';
    add(collector, statement, name, 'class');
    addMembers(collector, statement.members, name);
  } else if (ts.isInterfaceDeclaration(statement)) {
    add(collector, statement, statement.name.text, 'interface');
    addMembers(collector, statement.members, statement.name.text);
  } else if (ts.isTypeAliasDeclaration(statement)) {
    add(collector, statement, statement.name.text, 'type');
  } else if (ts.isEnumDeclaration(statement)) {
    add(collector, statement, statement.name.text, 'enum');
  } else if (ts.isModuleDeclaration(statement)) {
    add(collector, statement, statement.name.getText(sourceFile), 'namespace');
  } else if (ts.isVariableStatement(statement)) {
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue;
      const before = collector.symbols.length;
      add(collector, statement, declaration.name.text, variableKind(declaration.initializer));
      const added = collector.symbols[before];
      // A multi-declaration statement: narrow the range and signature to this declarator.
      if (added && statement.declarationList.declarations.length > 1) {
        collector.symbols[before] = {
          ...added,
          startLine: lineOf(sourceFile, declaration.getStart(sourceFile)),
          endLine: lineOf(sourceFile, declaration.getEnd()),
          signature: signatureOf(declaration, sourceFile),
        };
      }
      const initializer = declaration.initializer;
      if (initializer && ts.isClassExpression(initializer)) {
        addMembers(collector, initializer.members, declaration.name.text);
      }
    }
  } else if (ts.isExportAssignment(statement)) {
    visitExportAssignment(collector, statement.expression, statement);
  } else if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause) {
    if (ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        const local = (element.propertyName ?? element.name).getText(sourceFile);
        collector.exportedNames.add(local);
        if (element.name.getText(sourceFile) === 'default') collector.defaultName = local;
      }
    }
  } else if (ts.isExpressionStatement(statement)) {
    visitCommonJsExport(collector, statement);
  }
}

function visitExportAssignment(collector: Collector, expression: ts.Expression, node: ts.Node): void {
  if (ts.isIdentifier(expression)) {
    collector.exportedNames.add(expression.text);
    collector.defaultName = expression.text;
    return;
  }
  if (ts.isObjectLiteralExpression(expression)) {
    for (const property of expression.properties) {
      if (ts.isShorthandPropertyAssignment(property)) collector.exportedNames.add(property.name.text);
    }
  }
  const kind = ts.isClassExpression(expression) ? 'class' : variableKind(expression);
  collector.symbols.push({
    name: 'default',
    kind,
    exported: true,
    isDefault: true,
    startLine: lineOf(collector.sourceFile, node.getStart(collector.sourceFile)),
    endLine: lineOf(collector.sourceFile, node.getEnd()),
    signature: signatureOf(node, collector.sourceFile),
  });
}

function visitCommonJsExport(collector: Collector, statement: ts.ExpressionStatement): void {
  const expression = statement.expression;
  if (!ts.isBinaryExpression(expression) || expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken)
    return;
  const target = expression.left.getText(collector.sourceFile);
  if (target === 'module.exports') {
    visitExportAssignment(collector, expression.right, statement);
    return;
  }
  const match = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(target);
  if (match?.[1] === undefined) return;
  // `exports.helper = helper` exports the local declaration: it is the symbol, now exported.
  if (ts.isIdentifier(expression.right) && expression.right.text === match[1]) {
    collector.exportedNames.add(match[1]);
    return;
  }
  const before = collector.symbols.length;
  add(collector, statement, match[1], variableKind(expression.right));
  const added = collector.symbols[before];
  if (added) collector.symbols[before] = { ...added, exported: true };
}

const overloadable = new Set<SymbolKind>(['function', 'method', 'constructor']);

/**
 * Overload signatures and their implementation are one function: one symbol from the first
 * signature (its line and signature) to the implementation's end.
 */
function mergeOverloads(symbols: readonly CodeSymbol[]): CodeSymbol[] {
  const merged: CodeSymbol[] = [];
  for (const symbol of symbols) {
    const previous = merged.at(-1);
    if (
      previous !== undefined &&
      overloadable.has(symbol.kind) &&
      previous.kind === symbol.kind &&
      previous.name === symbol.name &&
      previous.container === symbol.container
    ) {
      merged[merged.length - 1] = { ...previous, endLine: Math.max(previous.endLine, symbol.endLine) };
      continue;
    }
    merged.push(symbol);
  }
  return merged;
}

/** The top-level declarations of a JS/TS file and the members of its classes and interfaces. */
export function collectSymbols(sourceFile: ts.SourceFile): CodeSymbol[] {
  const collector: Collector = { sourceFile, symbols: [], exportedNames: new Set() };
  for (const statement of sourceFile.statements) visitStatement(collector, statement);
  return mergeOverloads(collector.symbols).map((symbol) => {
    const isDefault = collector.defaultName === symbol.name;
    if (symbol.container !== undefined || !collector.exportedNames.has(symbol.name)) return symbol;
    if (symbol.exported && !isDefault) return symbol;
    return { ...symbol, exported: true, ...(isDefault ? { isDefault } : {}) };
  });
}
