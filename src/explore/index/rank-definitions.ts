import type { ParsedFile } from './code-symbol.js';
import { conventionalEntryPoints } from './entry-points.js';
import { pageRank } from './page-rank.js';
import { buildReferenceGraph } from './reference-graph.js';
import type { ModuleResolver } from './modules/module-resolver.js';

/** Options of {@link rankDefinitions}. */
export interface RankDefinitionsOptions {
  readonly focusFiles?: readonly string[];
  readonly focusSymbols?: readonly string[];
  /**
   * Files the restart distribution leans toward when nothing is focused: the public surface.
   * @default the conventional entry points (`index.*`, `main.*`, ... at the root, `src/` or `lib/`)
   */
  readonly entryPoints?: readonly string[];
}

/** Ranked files and, per file, ranked defined identifiers. */
export interface RankedDefinitions {
  readonly fileRanks: ReadonlyMap<string, number>;
  /** `(file, identifier, rank)`, highest rank first. */
  readonly definitions: readonly { readonly path: string; readonly name: string; readonly rank: number }[];
}

/** Share of the restart mass on the entry points when nothing is focused. */
const entryPointShare = 0.25;
/** Rank flowing back from a definition to its user, relative to the forward edge. */
const backFlow = 0.3;

/**
 * aider's repo-map ranking over the reference graph (see `buildReferenceGraph`): PageRank
 * personalised toward the focus files and the files defining focus symbols, or, without focus,
 * with a quarter of the restart mass on the entry points; then each file's rank shared out over
 * its out-edges to rank the definitions themselves.
 *
 * Each edge also carries 0.3 of its weight backward, from the definition to its user: a
 * module that wires the important modules together (axios's `Axios.js`: interceptors,
 * `dispatchRequest`, `mergeConfig`) ranks as a hub, and a tiny helper a hub imports is no
 * sink that takes all of the hub's rank.
 */
export function rankDefinitions(
  allFiles: readonly ParsedFile[],
  options: RankDefinitionsOptions,
  resolver: ModuleResolver,
): RankedDefinitions {
  const { files, definers, edges } = buildReferenceGraph(allFiles, options, resolver);
  const backward = edges.map((edge) => ({ from: edge.to, to: edge.from, weight: edge.weight * backFlow }));
  const fileRanks = pageRank(
    files.map((file) => file.path),
    [...edges, ...backward],
    { personalization: restartDistribution(files, definers, options) },
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

/**
 * With focus: the focus files and the files defining focus symbols, as aider restarts on the
 * chat files. Without: uniform, with `entryPointShare` of the mass on the entry points, so the
 * modules the public surface is built from carry rank even when only the entry uses them.
 */
function restartDistribution(
  files: readonly ParsedFile[],
  definers: ReadonlyMap<string, ReadonlySet<string>>,
  options: RankDefinitionsOptions,
): Map<string, number> {
  const personalization = new Map<string, number>();
  for (const path of options.focusFiles ?? []) personalization.set(path, 1);
  for (const name of options.focusSymbols ?? [])
    for (const path of definers.get(name) ?? []) personalization.set(path, 1);
  if (personalization.size > 0) return personalization;
  const paths = files.map((file) => file.path);
  const known = new Set(paths);
  const entryPoints = (options.entryPoints ?? conventionalEntryPoints(paths)).filter((path) =>
    known.has(path),
  );
  if (entryPoints.length === 0) return personalization;
  for (const path of paths) personalization.set(path, (1 - entryPointShare) / paths.length);
  for (const path of entryPoints)
    personalization.set(path, (personalization.get(path) ?? 0) + entryPointShare / entryPoints.length);
  return personalization;
}
