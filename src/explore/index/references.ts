import type { DefinitionLocation, IndexContext, Occurrence, ReferenceLocation } from './index-context.js';
import { clipLine } from './index-context.js';
import { findDefinitions } from './definitions.js';
import { grammarReferences } from './grammar-navigation.js';
import { importedModuleFiles, qualifierBefore } from './python-module-attributes.js';

export type { ReferenceLocation } from './index-context.js';

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
  /** How many files hold the `total` references (`files` may list fewer when truncated). */
  readonly fileCount: number;
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
        text: clipLine(text),
        isDefinition,
      });
    });
  }
  return occurrences;
}

/**
 * True for a Python use `module.name` whose `module` is an import of its file that resolves to
 * another file than the declaration's: the name of another module, though spelled the same.
 */
function isQualifiedElsewhere(
  context: IndexContext,
  entry: Omit<Occurrence, 'text'>,
  lineText: string,
  declarationPath: string,
): boolean {
  const file = context.byPath.get(entry.path);
  if (file?.language !== 'python') return false;
  const qualifier = qualifierBefore(lineText, entry.column);
  if (qualifier === undefined) return false;
  const modules = importedModuleFiles(context, file, qualifier);
  return modules !== undefined && !modules.includes(declarationPath);
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
  const scriptDefinitions = definitions.filter(
    (definition) => context.byPath.get(definition.path)?.engine === 'typescript',
  );
  const local = name.slice(name.lastIndexOf('.') + 1);
  const names = new Set([local, ...scriptDefinitions.map((definition) => definition.name)]);
  const found =
    scriptDefinitions.length > 0 ? (context.scripts?.references(names, scriptDefinitions) ?? []) : [];
  const grammarDefinitions = definitions.filter(
    (definition) => context.byPath.get(definition.path)?.engine === 'tree-sitter',
  );
  const lines = new Map<string, Promise<string[]>>();
  const rawLine = async (path: string, line: number): Promise<string> => {
    let text = lines.get(path);
    if (text === undefined) {
      text = readText(path).then((content) => content.split('\n'));
      lines.set(path, text);
    }
    return (await text)[line - 1] ?? '';
  };
  for (const { declarationPath, ...entry } of grammarReferences(context, grammarDefinitions)) {
    const text = await rawLine(entry.path, entry.line);
    if (entry.isDefinition || !isQualifiedElsewhere(context, entry, text, declarationPath))
      found.push({ ...entry, text: clipLine(text) });
  }
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
    fileCount: new Set(occurrences.map((occurrence) => occurrence.path)).size,
    files,
  };
}
