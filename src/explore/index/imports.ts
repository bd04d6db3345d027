import ts from 'typescript';
import type { ExportRecord, ImportRecord } from './code-symbol.js';

function lineOf(sourceFile: ts.SourceFile, node: ts.Node): number {
  return sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
}

function importedNames(clause: ts.ImportClause | undefined): string[] {
  if (clause === undefined) return [];
  const names: string[] = [];
  if (clause.name) names.push('default');
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
  if (bindings && ts.isNamedImports(bindings)) {
    for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
  }
  return names;
}

function localOf(clause: ts.ImportClause | undefined): { local?: string } {
  if (clause?.name) return { local: clause.name.text };
  const bindings = clause?.namedBindings;
  return bindings && ts.isNamespaceImport(bindings) ? { local: bindings.name.text } : {};
}

function exportedNames(clause: ts.NamedExportBindings | undefined): string[] {
  if (clause === undefined) return ['*'];
  if (ts.isNamespaceExport(clause)) return ['*'];
  return clause.elements.map((element) => (element.propertyName ?? element.name).text);
}

function requiredNames(call: ts.CallExpression): string[] {
  const parent = call.parent;
  if (ts.isVariableDeclaration(parent)) {
    if (ts.isObjectBindingPattern(parent.name)) {
      return parent.name.elements.map((element) => (element.propertyName ?? element.name).getText());
    }
    return ['default'];
  }
  if (ts.isPropertyAccessExpression(parent)) return [parent.name.text];
  return [];
}

function visitCalls(sourceFile: ts.SourceFile, records: ImportRecord[]): void {
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const argument = node.arguments[0];
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      const isDynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      if ((isRequire || isDynamic) && argument && ts.isStringLiteralLike(argument)) {
        records.push({
          specifier: argument.text,
          type: isRequire ? 'require' : 'dynamic-import',
          names: isRequire ? requiredNames(node) : ['*'],
          ...(isRequire && ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
            ? { local: node.parent.name.text }
            : {}),
          line: lineOf(sourceFile, node),
          typeOnly: false,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
}

/** Every import, re-export, dynamic `import()` and `require()` of a file, in source order. */
export function collectImports(sourceFile: ts.SourceFile): ImportRecord[] {
  const records: ImportRecord[] = [];
  for (const statement of sourceFile.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      records.push({
        specifier: statement.moduleSpecifier.text,
        type: 'import',
        names: importedNames(statement.importClause),
        ...localOf(statement.importClause),
        line: lineOf(sourceFile, statement),
        typeOnly: statement.importClause?.isTypeOnly ?? false,
      });
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      records.push({
        specifier: statement.moduleSpecifier.text,
        type: 'export-from',
        names: exportedNames(statement.exportClause),
        line: lineOf(sourceFile, statement),
        typeOnly: statement.isTypeOnly,
      });
    }
  }
  const text = sourceFile.text;
  if (text.includes('require(') || text.includes('import(')) visitCalls(sourceFile, records);
  return records.sort((left, right) => left.line - right.line);
}

/** The re-exports of a file (`export ... from`), in source order; `*` for `export * from`. */
export function collectReExports(sourceFile: ts.SourceFile): ExportRecord[] {
  const records: ExportRecord[] = [];
  for (const statement of sourceFile.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const from =
      statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    const line = lineOf(sourceFile, statement);
    const clause = statement.exportClause;
    if (clause === undefined || ts.isNamespaceExport(clause)) {
      const name = clause === undefined ? '*' : clause.name.text;
      records.push({ name, line, ...(from === undefined ? {} : { from }) });
      continue;
    }
    if (from === undefined) continue;
    for (const element of clause.elements) records.push({ name: element.name.text, line, from });
  }
  return records;
}
