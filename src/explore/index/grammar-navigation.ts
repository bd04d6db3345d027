import type { CodeSymbol, ParsedFile } from './code-symbol.js';
import type { DefinitionLocation, IndexContext } from './index-context.js';

/** One reference found in a file parsed by a grammar. Lines and columns are 1-based. */
export interface GrammarOccurrence {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly isDefinition: boolean;
  /** The file of the declaration this occurrence refers to. */
  readonly declarationPath: string;
}

/** C and C++ share headers: one family. */
function familyOf(language: string): string {
  return language === 'cpp' ? 'c' : language;
}

/**
 * The files whose top-level declarations `file` can name, nearest first: itself, its own Go or
 * Java package, the files its imports resolve to (a Go package's files, a Python package's
 * `__init__.py` and submodules), then one hop further (what an imported `__init__.py`, `mod.rs`
 * or header itself imports).
 */
export function reachableFiles(context: IndexContext, file: ParsedFile): Set<string> {
  const reached = new Set<string>([file.path, ...context.resolver.samePackage(file.path)]);
  const direct: string[] = [];
  for (const record of file.imports)
    direct.push(...(context.resolver.resolve(file.path, record)?.files ?? []));
  for (const target of direct) reached.add(target);
  for (const target of direct) {
    const imported = context.byPath.get(target);
    for (const record of imported?.imports ?? [])
      for (const next of context.resolver.resolve(target, record)?.files ?? []) reached.add(next);
  }
  return reached;
}

/** A declaration as a definition from its parsed symbol alone: its range, its signature as the snippet. */
export function symbolLocation(file: ParsedFile, symbol: CodeSymbol): DefinitionLocation {
  return {
    path: file.path,
    line: symbol.startLine,
    endLine: symbol.endLine,
    name: symbol.name,
    kind: symbol.kind,
    exported: symbol.exported,
    ...(symbol.container === undefined ? {} : { container: symbol.container }),
    snippet: symbol.signature,
  };
}

/** The top-level declarations named `name` in the given files, in their order. */
export function topLevelDeclarations(
  context: IndexContext,
  paths: Iterable<string>,
  name: string,
): DefinitionLocation[] {
  const locations: DefinitionLocation[] = [];
  for (const path of paths) {
    const target = context.byPath.get(path);
    for (const symbol of target?.symbols ?? [])
      if (symbol.container === undefined && symbol.name === name)
        locations.push(symbolLocation(target as ParsedFile, symbol));
  }
  return locations;
}

/**
 * A definition asked from a file of a grammar language that uses `name` without declaring it:
 * the top-level declarations of that name in the files it reaches through its imports, those
 * of an import naming it (`from utils import name`) first, then the rest of its direct imports,
 * then what those import in turn.
 */
export function definitionsFromImports(
  context: IndexContext,
  file: ParsedFile,
  name: string,
): DefinitionLocation[] {
  const named = new Set(
    file.imports
      .filter((record) => record.names.includes(name))
      .flatMap((record) => context.resolver.resolve(file.path, record)?.files ?? []),
  );
  const reached = [...reachableFiles(context, file)].filter((path) => path !== file.path);
  const ordered = [
    ...reached.filter((path) => named.has(path)),
    ...reached.filter((path) => !named.has(path)),
  ];
  return topLevelDeclarations(context, ordered, name);
}

/**
 * References of declarations in grammar-parsed files: identifier occurrences of the name (never
 * inside strings or comments: they hold no identifiers) in files of the same language. A
 * top-level declaration is referenced only from files that reach it through their imports (see
 * {@link reachableFiles}); a member (`obj.method`) from any file of the language, as no types
 * tell the receivers apart.
 */
export function grammarReferences(
  context: IndexContext,
  definitions: readonly DefinitionLocation[],
): GrammarOccurrence[] {
  const occurrences: GrammarOccurrence[] = [];
  const reachCache = new Map<string, Set<string>>();
  for (const definition of definitions) {
    const declaring = context.byPath.get(definition.path);
    if (declaring === undefined) continue;
    occurrences.push({
      path: definition.path,
      line: definition.line,
      column: 1,
      isDefinition: true,
      declarationPath: definition.path,
    });
    const family = familyOf(declaring.language);
    for (const file of context.files) {
      if (familyOf(file.language) !== family) continue;
      const positions = file.occurrences?.get(definition.name);
      if (positions === undefined) continue;
      if (definition.container === undefined && file.path !== definition.path) {
        let reached = reachCache.get(file.path);
        if (reached === undefined) {
          reached = reachableFiles(context, file);
          reachCache.set(file.path, reached);
        }
        if (!reached.has(definition.path)) continue;
      }
      for (let index = 0; index + 1 < positions.length; index += 2) {
        occurrences.push({
          path: file.path,
          line: positions[index] ?? 0,
          column: positions[index + 1] ?? 0,
          isDefinition: false,
          declarationPath: definition.path,
        });
      }
    }
  }
  return occurrences;
}
