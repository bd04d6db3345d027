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

function languageServiceReferences(context: IndexContext, definition: DefinitionLocation): Occurrence[] {
  const service = context.service();
  const program = service.getProgram();
  const fileName = context.host.absolute(definition.path);
  const sourceFile = program?.getSourceFile(fileName);
  if (sourceFile === undefined) return [];
  const position = positionOfName(sourceFile, definition.line, definition.name);
  if (position === -1) return [];
  const occurrences: Occurrence[] = [];
  for (const referenced of service.findReferences(fileName, position) ?? []) {
    for (const entry of referenced.references) {
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
