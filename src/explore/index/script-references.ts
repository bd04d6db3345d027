import ts from 'typescript';
import type { DefinitionLocation, Occurrence } from './index-context.js';
import { clipLine, linesAt, wordPositions } from './index-context.js';
import type { ScriptContext } from './script-context.js';
import { positionOfName } from './script-context.js';
import { calledDeclaration } from './script-definitions.js';
import { identifierAt, isJsDocDeclaration, symbolChain } from './symbol-chain.js';

function occurrence(
  context: ScriptContext,
  sourceFile: ts.SourceFile,
  position: number,
  isDefinition: boolean,
): Occurrence {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(position);
  return {
    path: context.host.relative(sourceFile.fileName),
    line: line + 1,
    column: character + 1,
    text: clipLine(linesAt(sourceFile.text, line + 1, 1)),
    isDefinition,
  };
}

/**
 * The references of JS/TS declarations, as the compiler sees them: every identifier named
 * `name` in the files that mention it whose symbol leads (through imports, `require`
 * bindings, re-exports and export objects, see `symbolChain`) to one of the declarations,
 * JSDoc type names included, plus, for members, what the language service's `findReferences`
 * finds (overrides and implementations across a class hierarchy, the members of object literals
 * typed by an interface). A function an object literal holds as a property (`{ extend_ }`,
 * `{ extend_: extend_ }`) implements that property: the uses of the property (through the
 * interface typing the literal) are its uses too, as `findReferences` at the property finds
 * them. Same-named locals and
 * properties of other objects resolve elsewhere and are left out; nothing inside strings or
 * comments is an identifier.
 */
export function scriptReferences(
  context: ScriptContext,
  names: ReadonlySet<string>,
  definitions: readonly DefinitionLocation[],
): Occurrence[] {
  const service = context.service();
  const program = service.getProgram();
  const checker = program?.getTypeChecker();
  if (program === undefined || checker === undefined) return [];
  // Declarations, not symbols: a JS module's `module.exports = Class` reaches the class through a transient copy of its symbol.
  const targets = new Set<ts.Declaration>();
  const leadsToTarget = (symbol: ts.Symbol): boolean =>
    symbolChain(checker, symbol).some((hop) =>
      (hop.declarations ?? []).some((declaration) => targets.has(declaration)),
    );
  const declarationSites = new Set<string>();
  const occurrences: Occurrence[] = [];
  const starts: { readonly fileName: string; readonly position: number; readonly member: boolean }[] = [];
  for (const definition of definitions) {
    const sourceFile = program.getSourceFile(context.host.absolute(definition.path));
    const position =
      sourceFile === undefined ? -1 : positionOfName(sourceFile, definition.line, definition.name);
    if (sourceFile === undefined || position === -1) continue;
    declarationSites.add(`${definition.path}:${position}`);
    const node = identifierAt(sourceFile, position);
    starts.push({
      fileName: sourceFile.fileName,
      position,
      member: definition.container !== undefined || (node !== undefined && isMemberName(node)),
    });
    const symbol = node === undefined ? undefined : checker.getSymbolAtLocation(node);
    const target = symbol === undefined ? undefined : (symbolChain(checker, symbol).at(-1) ?? symbol);
    for (const declaration of target?.declarations ?? []) targets.add(declaration);
  }
  // The language service's own search costs as much again; it adds what names cannot find: a
  // member's overrides and implementations across a class hierarchy.
  for (const start of starts) {
    if (!start.member) continue;
    for (const referenced of service.findReferences(start.fileName, start.position) ?? []) {
      for (const entry of referenced.references) {
        const target = program.getSourceFile(entry.fileName);
        // A declaration the service reports (an overload signature, a merged declaration) is one too.
        const site = `${context.host.relative(entry.fileName)}:${entry.textSpan.start}`;
        const isDefinition = entry.isDefinition === true || declarationSites.has(site);
        if (target !== undefined)
          occurrences.push(occurrence(context, target, entry.textSpan.start, isDefinition));
      }
    }
  }
  if (targets.size === 0) return occurrences;
  /** Object-literal properties holding a target (`{ extend_ }`): where the property's own uses are searched from. */
  const heldAsProperty: { readonly sourceFile: ts.SourceFile; readonly position: number }[] = [];
  const scanned = new Set<string>();
  // Names to look for and where: a renamed import (`import { x as y }`) is used under its new
  // name in its file; a renamed re-export (`export { x as y }`) everywhere.
  const queue: { readonly name: string; readonly paths: readonly string[] }[] = [...names].map((name) => ({
    name,
    paths: context.scriptFilesMentioning(name),
  }));
  for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
    for (const path of task.paths) {
      const key = `${path}\n${task.name}`;
      if (scanned.has(key)) continue;
      scanned.add(key);
      const sourceFile = program.getSourceFile(context.host.absolute(path));
      if (sourceFile === undefined) context.missing(path);
      // The text, not the parsed identifiers: JSDoc types (`@param {Name}`) are references too.
      if (sourceFile?.text.includes(task.name) === true) scanFile(sourceFile, task.name);
    }
  }
  for (const property of heldAsProperty) {
    for (const referenced of service.findReferences(property.sourceFile.fileName, property.position) ?? []) {
      for (const entry of referenced.references) {
        const target = program.getSourceFile(entry.fileName);
        if (target === undefined) continue;
        const site = `${context.host.relative(entry.fileName)}:${entry.textSpan.start}`;
        const node = identifierAt(target, entry.textSpan.start);
        // The interface member and the literals' own members declare the property: definitions.
        const declares = node !== undefined && isMemberName(node);
        occurrences.push(
          occurrence(context, target, entry.textSpan.start, declares || declarationSites.has(site)),
        );
      }
    }
  }
  return occurrences;

  function scanFile(sourceFile: ts.SourceFile, name: string): void {
    if (checker === undefined) return;
    const path = context.host.relative(sourceFile.fileName);
    for (const position of wordPositions(sourceFile.text, name)) {
      const node = identifierAt(sourceFile, position);
      if (node === undefined || node.text !== name) continue;
      const symbol = checker.getSymbolAtLocation(node);
      if (symbol === undefined) continue;
      // Resolving the call's signature checks its arguments: only when the symbol alone does not decide.
      if (!leadsToTarget(symbol)) {
        const called = calledDeclaration(checker, node);
        if (called === undefined || !targets.has(called)) continue;
      }
      // The name of a declaration of the symbol itself (an overload signature, a merged
      // interface) declares it: a definition, not a use.
      const declares =
        targets.has(node.parent as ts.Declaration) &&
        ts.getNameOfDeclaration(node.parent as ts.Declaration) === node;
      occurrences.push(
        occurrence(context, sourceFile, position, declares || declarationSites.has(`${path}:${position}`)),
      );
      const property = heldBy(node);
      if (property !== undefined && implementsDeclaredMember(checker, property))
        heldAsProperty.push({ sourceFile, position: property.getStart(sourceFile) });
      const renamed = renamedTo(node);
      if (renamed !== undefined)
        queue.push({
          name: renamed.name,
          paths: renamed.fileOnly ? [path] : context.scriptFilesMentioning(renamed.name),
        });
    }
  }
}

/** True for the name of a member declaration: a class, interface or object-literal member (not a shorthand `{ name }`). */
function isMemberName(node: ts.Node): boolean {
  const parent = node.parent;
  if (parent === undefined || ts.isShorthandPropertyAssignment(parent)) return false;
  const isMember =
    ts.isPropertyAssignment(parent) ||
    ts.isMethodDeclaration(parent) ||
    ts.isMethodSignature(parent) ||
    ts.isPropertySignature(parent) ||
    ts.isPropertyDeclaration(parent) ||
    ts.isGetAccessorDeclaration(parent) ||
    ts.isSetAccessorDeclaration(parent);
  return isMember && parent.name === node;
}

/** The property name of an object literal entry whose value is `node`: `{ node }` or `{ key: node }`. */
function heldBy(node: ts.Node): ts.PropertyName | undefined {
  const parent = node.parent;
  if (parent === undefined || !ts.isObjectLiteralExpression(parent.parent)) return undefined;
  if (ts.isShorthandPropertyAssignment(parent) && parent.name === node) return parent.name;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) return parent.name;
  return undefined;
}

/** True when an object literal's property is typed by a member declared in code (an interface, a type, a class), not in JSDoc. */
function implementsDeclaredMember(checker: ts.TypeChecker, property: ts.PropertyName): boolean {
  const literal = property.parent.parent;
  if (!ts.isObjectLiteralExpression(literal) || !ts.isIdentifier(property)) return false;
  const member = checker.getContextualType(literal)?.getProperty(property.text);
  // Declared elsewhere: the literal's own type (an untyped literal's) declares the property in the literal itself.
  const declarations = (member?.declarations ?? []).filter((declaration) => declaration.parent !== literal);
  return declarations.length > 0 && !declarations.some(isJsDocDeclaration);
}

/** The new name when `node` is the old name of a renaming import or re-export. */
function renamedTo(node: ts.Node): { readonly name: string; readonly fileOnly: boolean } | undefined {
  const parent = node.parent;
  if (parent === undefined) return undefined;
  if (ts.isImportSpecifier(parent) && parent.propertyName === node)
    return { name: parent.name.text, fileOnly: true };
  if (ts.isExportSpecifier(parent) && parent.propertyName === node && ts.isIdentifier(parent.name))
    return { name: parent.name.text, fileOnly: false };
  return undefined;
}
