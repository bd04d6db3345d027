import type { ParsedFile, SymbolKind } from './code-symbol.js';
import { pageRank } from './page-rank.js';
import { resolveImport } from './resolve-import.js';
import type { WeightedEdge } from './page-rank.js';

/** Options of {@link rankDefinitions}. */
export interface RankDefinitionsOptions {
  readonly focusFiles?: readonly string[];
  readonly focusSymbols?: readonly string[];
}

/** Ranked files and, per file, ranked defined identifiers. */
export interface RankedDefinitions {
  readonly fileRanks: ReadonlyMap<string, number>;
  /** `(file, identifier, rank)`, highest rank first. */
  readonly definitions: readonly { readonly path: string; readonly name: string; readonly rank: number }[];
}

function isDeclarationFile(path: string): boolean {
  return /\.d\.[cm]?ts$/.test(path);
}

// Members of JS built-ins: a `.toString()` or `.forEach()` call says nothing about which repo
// file a caller needs, even when some repo class happens to define a method of that name.
const builtinNames = new Set(
  (
    'toString valueOf toJSON toLocaleString hasOwnProperty prototype constructor length name message stack cause ' +
    'forEach map filter reduce some every find findIndex includes indexOf join slice splice push pop shift unshift concat ' +
    'sort keys values entries get set has delete clear add then catch finally call apply bind from of assign create ' +
    'freeze defineProperty getPrototypeOf isArray parse stringify test exec match replace split trim source next return throw ' +
    'write read end on once emit pipe destroy close open send abort resolve reject all race size data type'
  ).split(' '),
);
const typeKinds = new Set<SymbolKind>(['class', 'interface', 'type', 'enum', 'struct', 'trait']);
const ignoredNames = new Set(['default', 'constructor']);

function identifierWeight(
  name: string,
  definers: number,
  focusSymbols: ReadonlySet<string>,
  typeNames: ReadonlySet<string>,
): number {
  let weight = 1;
  if (focusSymbols.has(name)) weight *= 10;
  const isCompound = /[a-z][A-Z]|_|-/.test(name) || /^[A-Z][a-z]+[A-Z]/.test(name);
  // aider: long compound names are specific. Also: a class or type name declared in one file only.
  if ((isCompound && name.length >= 8) || (definers === 1 && typeNames.has(name))) weight *= 10;
  if (name.startsWith('_') || builtinNames.has(name)) weight *= 0.1;
  if (definers > 5) weight *= 0.1;
  return weight;
}

/**
 * aider's repo-map ranking: an edge from each file that references an identifier to each
 * file that defines it, weighted by the identifier's specificity (long compound names ×10,
 * focus symbols ×10, `_private` ×0.1, names defined in more than five files ×0.1) and by the
 * square root of the reference count; PageRank personalised toward the focus files and the
 * files defining focus symbols; then each file's rank shared out over its out-edges to rank
 * the definitions themselves.
 */
export function rankDefinitions(
  files: readonly ParsedFile[],
  options: RankDefinitionsOptions,
): RankedDefinitions {
  const definers = new Map<string, Set<string>>();
  const typeNames = new Set<string>();
  for (const file of files) {
    for (const symbol of file.symbols) {
      // As aider's tags: declarations and methods define names; properties and fields do not.
      if (ignoredNames.has(symbol.name) || symbol.kind === 'property') continue;
      definers.set(symbol.name, (definers.get(symbol.name) ?? new Set()).add(file.path));
      if (symbol.container === undefined && typeKinds.has(symbol.kind)) typeNames.add(symbol.name);
    }
  }
  // A name declared both in .d.ts typings and in code is defined by the code: typings
  // mirroring an implementation (axios's index.d.ts) should not soak up the implementation's rank.
  for (const [name, paths] of definers) {
    const implementations = [...paths].filter((path) => !isDeclarationFile(path));
    if (implementations.length > 0 && implementations.length < paths.size)
      definers.set(name, new Set(implementations));
  }
  const focusSymbols = new Set(options.focusSymbols ?? []);
  const focusFiles = new Set(options.focusFiles ?? []);
  const edges: (WeightedEdge & { readonly name: string })[] = [];
  const known = new Set(files.map((file) => file.path));
  const exists = (path: string): boolean => known.has(path);
  for (const file of files) {
    const fromFocus = focusFiles.has(file.path) ? 50 : 1;
    for (const [name, count] of file.references) {
      const targets = definers.get(name);
      if (targets === undefined || count <= 0) continue;
      const weight =
        identifierWeight(name, targets.size, focusSymbols, typeNames) * fromFocus * Math.sqrt(count);
      for (const target of targets)
        if (target !== file.path) edges.push({ from: file.path, to: target, weight, name });
    }
    // A default or namespace import's local name (`import utils from './utils.js'`) is defined
    // nowhere, yet names exactly one file: an edge as specific as a long compound identifier.
    for (const record of file.imports) {
      const target =
        record.local === undefined ? undefined : resolveImport(file.path, record.specifier, exists);
      if (target === undefined || record.local === undefined) continue;
      const count = Math.max(1, file.references.get(record.local) ?? 1);
      edges.push({ from: file.path, to: target, weight: 10 * fromFocus * Math.sqrt(count), name: 'default' });
    }
  }
  const personalization = new Map<string, number>();
  for (const path of focusFiles) personalization.set(path, 1);
  for (const name of focusSymbols) for (const path of definers.get(name) ?? []) personalization.set(path, 1);
  const fileRanks = pageRank(
    files.map((file) => file.path),
    edges,
    { personalization },
  );
  const outWeight = new Map<string, number>();
  for (const edge of edges) outWeight.set(edge.from, (outWeight.get(edge.from) ?? 0) + edge.weight);
  const definitionRanks = new Map<string, number>();
  for (const edge of edges) {
    const share = ((fileRanks.get(edge.from) ?? 0) * edge.weight) / (outWeight.get(edge.from) ?? 1);
    const key = `${edge.to}\n${edge.name}`;
    definitionRanks.set(key, (definitionRanks.get(key) ?? 0) + share);
  }
  const definitions = [...definitionRanks]
    .map(([key, rank]) => {
      const [path = '', name = ''] = key.split('\n');
      return { path, name, rank };
    })
    .sort((left, right) => right.rank - left.rank || (left.path < right.path ? -1 : 1));
  return { fileRanks, definitions };
}
