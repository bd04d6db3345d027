import ts from 'typescript';
import type { DefinitionLocation, IndexContext } from './index-context.js';
import { linesAt, positionOfName } from './index-context.js';
import { findDefinitions } from './definitions.js';

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

function innermostNode(node: ts.Node, position: number): ts.Node {
  const child = node.forEachChild((candidate) =>
    candidate.pos <= position && position < candidate.end ? candidate : undefined,
  );
  return child === undefined ? node : innermostNode(child, position);
}

/** The position of the property name when `position` is a value placed in an object literal (`{ x }`, `{ y: x }`). */
function objectPropertyNameAt(sourceFile: ts.SourceFile | undefined, position: number): number | undefined {
  if (sourceFile === undefined) return undefined;
  const node = innermostNode(sourceFile, position);
  const parent = node.parent;
  if (parent === undefined || !ts.isIdentifier(node)) return undefined;
  if (ts.isShorthandPropertyAssignment(parent)) return position;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) return parent.name.getStart(sourceFile);
  return undefined;
}

function languageServiceReferences(context: IndexContext, definition: DefinitionLocation): Occurrence[] {
  const service = context.service();
  const program = service.getProgram();
  const fileName = context.host.absolute(definition.path);
  const sourceFile = program?.getSourceFile(fileName);
  if (sourceFile === undefined) return [];
  const position = positionOfName(sourceFile, definition.line, definition.name);
  if (position === -1) return [];
  const occurrences: Occurrence[] = [];
  const entries = (service.findReferences(fileName, position) ?? []).flatMap(
    (referenced) => referenced.references,
  );
  // A value exported as an object property (`export default { isString }`) is used as
  // `utils.isString` elsewhere: those are references of the property, found from the property.
  for (const entry of [...entries]) {
    const propertyName = objectPropertyNameAt(program?.getSourceFile(entry.fileName), entry.textSpan.start);
    if (propertyName === undefined) continue;
    for (const referenced of service.findReferences(entry.fileName, propertyName) ?? [])
      entries.push(...referenced.references);
  }
  for (const entry of entries) {
    const target = program?.getSourceFile(entry.fileName);
    if (target === undefined) continue;
    const { line, character } = target.getLineAndCharacterOfPosition(entry.textSpan.start);
    occurrences.push({
      path: context.host.relative(entry.fileName),
      line: line + 1,
      column: character + 1,
      text: clip(linesAt(target.text, line + 1, 1)),
      isDefinition: entry.isDefinition === true,
    });
  }
  return occurrences;
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
 * reference to them: the language service's `findReferences` for JS/TS, whole-word matches
 * for the regex-fallback languages. Grouped by file in path order and capped.
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
  for (const definition of definitions) {
    const found =
      context.byPath.get(definition.path)?.engine === 'typescript'
        ? languageServiceReferences(context, definition)
        : await textReferences(context, definition, readText);
    for (const occurrence of found) {
      const key = `${occurrence.path}:${occurrence.line}:${occurrence.column}`;
      if (seen.has(key) || (occurrence.isDefinition && options.includeDeclaration !== true)) continue;
      seen.add(key);
      occurrences.push(occurrence);
    }
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
