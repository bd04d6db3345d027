import ts from 'typescript';
import type { DefinitionLocation, Occurrence } from './index-context.js';
import { clipLine, linesAt, wordPositions } from './index-context.js';
import type { ScriptContext } from './script-context.js';
import { positionOfName } from './script-context.js';
import { calledDeclaration } from './script-definitions.js';
import { identifierAt, symbolChain } from './symbol-chain.js';

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
 * finds (overrides and implementations across a class hierarchy). Same-named locals and
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
    starts.push({ fileName: sourceFile.fileName, position, member: definition.container !== undefined });
    const node = identifierAt(sourceFile, position);
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
  return occurrences;

  function scanFile(sourceFile: ts.SourceFile, name: string): void {
    if (checker === undefined) return;
    const path = context.host.relative(sourceFile.fileName);
    for (const position of wordPositions(sourceFile.text, name)) {
      const node = identifierAt(sourceFile, position);
      if (node === undefined || node.text !== name) continue;
      const symbol = checker.getSymbolAtLocation(node);
      if (symbol === undefined) continue;
      const called = calledDeclaration(checker, node);
      if (!leadsToTarget(symbol) && (called === undefined || !targets.has(called))) continue;
      // The name of a declaration of the symbol itself (an overload signature, a merged
      // interface) declares it: a definition, not a use.
      const declares =
        targets.has(node.parent as ts.Declaration) &&
        ts.getNameOfDeclaration(node.parent as ts.Declaration) === node;
      occurrences.push(
        occurrence(context, sourceFile, position, declares || declarationSites.has(`${path}:${position}`)),
      );
      const renamed = renamedTo(node);
      if (renamed !== undefined)
        queue.push({
          name: renamed.name,
          paths: renamed.fileOnly ? [path] : context.scriptFilesMentioning(renamed.name),
        });
    }
  }
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
