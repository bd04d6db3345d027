import type { CodeSymbol, ParsedFile } from './code-symbol.js';
import { rankDefinitions } from './rank-definitions.js';
import type { ModuleResolver } from './modules/module-resolver.js';

/** Options of {@link buildRepoMap}. */
export interface RepoMapOptions {
  /** Token budget of the map, estimated as characters / 4. @default 1024 */
  readonly maxTokens?: number;
  /** Files to rank the map toward (repo-relative). */
  readonly focusFiles?: readonly string[];
  /** Identifiers to rank the map toward. */
  readonly focusSymbols?: readonly string[];
}

/** A ranked overview of the repo that fits a token budget. */
export interface RepoMap {
  /** One block per file, most important first: the path, then its key symbol signatures. */
  readonly text: string;
  /** `Math.ceil(text.length / 4)`: a rough, tokenizer-independent estimate. */
  readonly estimatedTokens: number;
  readonly maxTokens: number;
  /** Focus files given that are not source files of the index (missing, hidden or unsupported); they were ignored. */
  readonly unknownFocusFiles: readonly string[];
  /** How many files the ranking holds and how many ranked definitions it has; the map shows a budgeted part. */
  readonly totals: { readonly files: number; readonly definitions: number };
  /** How many of the ranked definitions the map shows with their signatures. */
  readonly shownDefinitions: number;
  /** The files in the map, in order, with their PageRank. */
  readonly files: readonly {
    readonly path: string;
    readonly rank: number;
    readonly symbols: readonly string[];
  }[];
}

/** The token estimate used by the repo map: one token per four characters. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function renderSymbol(symbol: CodeSymbol): string {
  return `${symbol.container === undefined ? '  ' : '    '}${symbol.startLine}: ${symbol.signature}`;
}

interface Entry {
  readonly path: string;
  readonly rank: number;
  readonly symbols: CodeSymbol[];
}

function render(entries: readonly Entry[]): string {
  return entries
    .map((entry) => {
      const symbols = [...entry.symbols].sort((left, right) => left.startLine - right.startLine);
      const lines = [`${entry.path}:`];
      for (const symbol of symbols) {
        // A member whose class is not shown gets the class name so it still reads.
        const orphan =
          symbol.container !== undefined &&
          !symbols.some((other) => other.name === symbol.container && other.container === undefined);
        lines.push(
          orphan ? `  ${symbol.startLine}: ${symbol.container}.${symbol.signature}` : renderSymbol(symbol),
        );
      }
      return lines.join('\n');
    })
    .join('\n');
}

/**
 * Builds aider-style repo map: files ranked by PageRank over the definition/reference graph
 * (see `rankDefinitions`), each with the signatures of its highest-ranked definitions, as many
 * definitions as fit `maxTokens` (binary search over how many ranked definitions to show).
 */
export function buildRepoMap(
  files: readonly ParsedFile[],
  resolver: ModuleResolver,
  options: RepoMapOptions = {},
): RepoMap {
  const maxTokens = options.maxTokens ?? 1024;
  const ranked = rankDefinitions(files, options, resolver);
  const byPath = new Map(files.map((file) => [file.path, file]));
  const tags: { path: string; symbol: CodeSymbol }[] = [];
  for (const definition of ranked.definitions) {
    const file = byPath.get(definition.path);
    // The declaration itself over a same-named member: `function bind` rather than `Foo.bind`.
    const symbols = file?.symbols.filter((candidate) => candidate.name === definition.name) ?? [];
    const symbol = symbols.find((candidate) => candidate.container === undefined) ?? symbols[0];
    if (symbol) tags.push({ path: definition.path, symbol });
  }
  const rankedFiles = [...ranked.fileRanks].sort((left, right) => right[1] - left[1]);
  const build = (count: number): Entry[] => {
    const entries = new Map<string, Entry>();
    for (const tag of tags.slice(0, count)) {
      const entry = entries.get(tag.path) ?? {
        path: tag.path,
        rank: ranked.fileRanks.get(tag.path) ?? 0,
        symbols: [],
      };
      entry.symbols.push(tag.symbol);
      entries.set(tag.path, entry);
    }
    return [...entries.values()].sort((left, right) => right.rank - left.rank);
  };
  let low = 0;
  let high = tags.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTokens(render(build(middle))) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  const entries = build(low);
  // Spend what is left of the budget on the paths of the next most important files.
  let text = render(entries);
  const shown = new Set(entries.map((entry) => entry.path));
  for (const [path, rank] of rankedFiles) {
    if (shown.has(path)) continue;
    const candidate = `${text}${text === '' ? '' : '\n'}${path}`;
    if (estimateTokens(candidate) > maxTokens) break;
    text = candidate;
    entries.push({ path, rank, symbols: [] });
  }
  return {
    text,
    estimatedTokens: estimateTokens(text),
    maxTokens,
    unknownFocusFiles: (options.focusFiles ?? []).filter((path) => !byPath.has(path)),
    totals: { files: rankedFiles.length, definitions: tags.length },
    shownDefinitions: low,
    files: entries.map((entry) => ({
      path: entry.path,
      rank: entry.rank,
      symbols: entry.symbols.map((symbol) => symbol.name),
    })),
  };
}
