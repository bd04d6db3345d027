import ts from 'typescript';
import type { DefinitionLocation, IndexContext } from './index-context.js';
import { linesAt, positionOfName } from './index-context.js';
import { calledDeclaration, findDefinitions, wordPositions } from './definitions.js';
import { identifierAt, symbolChain } from './symbol-chain.js';
import { grammarReferences } from './grammar-navigation.js';

/** One use of a symbol. Lines and columns are 1-based. */
export interface ReferenceLocation {
  readonly line: number;
  readonly column: number;
  /** The source line, trimmed, at most 200 characters. */
  readonly text: string;
  /** True when this occurrence is a declaration of the symbol. */
  readonly isDefinition: boolean;
}

/** References in one file. */
export interface FileReferences {
  readonly path: string;
  readonly references: readonly ReferenceLocation[];
}

/** What `references` returns: the declarations searched from and the uses, grouped by file. */
export interface ReferencesResult {
  readonly symbol: string;
  readonly definitions: readonly DefinitionLocation[];
  /** Every reference found, before the cap. */
  readonly total: number;
  /** True when `files` holds fewer than `total` references. */
  readonly truncated: boolean;
  readonly files: readonly FileReferences[];
}

/** Options of {@link findReferences}. */
export interface FindReferencesOptions {
  readonly path?: string;
  /** Count the declarations themselves as references. @default false */
  readonly includeDeclaration?: boolean;
  /** The most references returned. @default 200 */
  readonly maxReferences?: number;
}

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 200 ? `${trimmed.slice(0, 197)}...` : trimmed;
}

type Occurrence = ReferenceLocation & { readonly path: string };

function occurrence(
  context: IndexContext,
  sourceFile: ts.SourceFile,
  position: number,
  isDefinition: boolean,
): Occurrence {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(position);
  return {
    path: context.host.relative(sourceFile.fileName),
    line: line + 1,
    column: character + 1,
    text: clip(linesAt(sourceFile.text, line + 1, 1)),
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
function scriptReferences(
  context: IndexContext,
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
  const allFiles = context.files.filter((file) => file.engine === 'typescript').map((file) => file.path);
  // Names to look for and where: a renamed import (`import { x as y }`) is used under its new
  // name in its file; a renamed re-export (`export { x as y }`) everywhere.
  const queue: { readonly name: string; readonly paths: readonly string[] }[] = [...names].map((name) => ({
    name,
    paths: allFiles,
  }));
  for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
    for (const path of task.paths) {
      const key = `${path}\n${task.name}`;
      if (scanned.has(key)) continue;
      scanned.add(key);
      const sourceFile = program.getSourceFile(context.host.absolute(path));
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
        queue.push({ name: renamed.name, paths: renamed.fileOnly ? [path] : allFiles });
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

/** Whole-word matches in files of the same fallback language (no compiler for those). */
async function textReferences(
  context: IndexContext,
  definition: DefinitionLocation,
  readText: (path: string) => Promise<string>,
): Promise<Occurrence[]> {
  const language = context.byPath.get(definition.path)?.language;
  const occurrences: Occurrence[] = [];
  const pattern = new RegExp(`(?<![\\w$])${definition.name.replace(/[$]/g, '\\$')}(?![\\w$])`);
  for (const file of context.files) {
    if (file.language !== language || !file.references.has(definition.name)) continue;
    const lines = (await readText(file.path)).split('\n');
    lines.forEach((text, index) => {
      const match = pattern.exec(text);
      if (!match) return;
      const isDefinition = file.path === definition.path && index + 1 === definition.line;
      occurrences.push({
        path: file.path,
        line: index + 1,
        column: match.index + 1,
        text: clip(text),
        isDefinition,
      });
    });
  }
  return occurrences;
}

/**
 * Finds the uses of `name`: its declarations first (see `findDefinitions`), then every
 * reference to them: resolved through the type checker for JS/TS, identifier occurrences
 * scoped by imports for the tree-sitter languages (see `grammarReferences`), whole-word
 * matches for the pattern-fallback languages. One entry per line, grouped by file in path
 * order, capped.
 */
export async function findReferences(
  context: IndexContext,
  name: string,
  options: FindReferencesOptions,
  readText: (path: string) => Promise<string>,
): Promise<ReferencesResult> {
  const definitions = findDefinitions(context, name, options.path);
  const seen = new Set<string>();
  const occurrences: Occurrence[] = [];
  const scripts = definitions.filter(
    (definition) => context.byPath.get(definition.path)?.engine === 'typescript',
  );
  const local = name.slice(name.lastIndexOf('.') + 1);
  const names = new Set([local, ...scripts.map((definition) => definition.name)]);
  const found = scripts.length > 0 ? scriptReferences(context, names, scripts) : [];
  const grammarDefinitions = definitions.filter(
    (definition) => context.byPath.get(definition.path)?.engine === 'tree-sitter',
  );
  const lines = new Map<string, Promise<string[]>>();
  const lineText = async (path: string, line: number): Promise<string> => {
    let text = lines.get(path);
    if (text === undefined) {
      text = readText(path).then((content) => content.split('\n'));
      lines.set(path, text);
    }
    return clip((await text)[line - 1] ?? '');
  };
  for (const entry of grammarReferences(context, grammarDefinitions))
    found.push({ ...entry, text: await lineText(entry.path, entry.line) });
  for (const definition of definitions) {
    if (context.byPath.get(definition.path)?.engine === 'regex')
      found.push(...(await textReferences(context, definition, readText)));
  }
  // One entry per line: a line that uses the name twice is one place to look.
  found.sort((left, right) => Number(right.isDefinition) - Number(left.isDefinition));
  for (const entry of found) {
    const key = `${entry.path}:${entry.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (entry.isDefinition && options.includeDeclaration !== true) continue;
    occurrences.push(entry);
  }
  occurrences.sort((left, right) =>
    left.path === right.path
      ? left.line - right.line || left.column - right.column
      : left.path < right.path
        ? -1
        : 1,
  );
  const maxReferences = options.maxReferences ?? 200;
  const files: { path: string; references: ReferenceLocation[] }[] = [];
  for (const { path, ...reference } of occurrences.slice(0, maxReferences)) {
    const last = files.at(-1);
    if (last?.path === path) last.references.push(reference);
    else files.push({ path, references: [reference] });
  }
  return {
    symbol: name,
    definitions,
    total: occurrences.length,
    truncated: occurrences.length > maxReferences,
    files,
  };
}
