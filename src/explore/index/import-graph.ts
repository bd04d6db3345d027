import type { ImportRecord, ParsedFile } from './code-symbol.js';
import type { ModuleResolver } from './modules/module-resolver.js';

/** An edge of the import graph: `from` imports `to`. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly specifier: string;
  readonly line: number;
}

/** One file's place in the graph. */
export interface FileImportGraph {
  readonly path: string;
  /** Its imports, relative ones resolved to repo files when they resolve. */
  readonly imports: readonly ImportRecord[];
  /** Files that import it, with the importing line. */
  readonly importedBy: readonly {
    readonly path: string;
    readonly line: number;
    readonly specifier: string;
  }[];
}

/** A summary of the whole repo's import graph. */
export interface ImportGraphSummary {
  readonly files: number;
  readonly edges: number;
  /** Files imported by the most other files, most first (at most `limit`). */
  readonly mostImported: readonly { readonly path: string; readonly importedBy: number }[];
  /** Files nobody imports that import something: likely entry points (at most `limit`, most imports first). */
  readonly entryPoints: readonly { readonly path: string; readonly imports: number }[];
  /** Relative imports that resolve to no repo file (at most `limit`). */
  readonly unresolved: readonly {
    readonly path: string;
    readonly specifier: string;
    readonly line: number;
  }[];
  /** How many entries each list had before the cut: imported files, entry points, unresolved imports. */
  readonly totals: {
    readonly mostImported: number;
    readonly entryPoints: number;
    readonly unresolved: number;
  };
}

/** Each of a file's imports with the repo file (or files) it resolves to. */
export function resolveImports(file: ParsedFile, resolver: ModuleResolver): ImportRecord[] {
  return file.imports.map((record) => {
    const found = resolver.resolve(file.path, record);
    if (found === undefined) return record;
    const many = found.files.length > 1 || found.files[0] !== found.resolved;
    return { ...record, resolved: found.resolved, ...(many ? { resolvedFiles: found.files } : {}) };
  });
}

/** Every resolved import edge of the repo, in file order: one per file an import reaches. */
export function importEdges(files: readonly ParsedFile[], resolver: ModuleResolver): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const record of file.imports) {
      const found = resolver.resolve(file.path, record);
      for (const to of found?.files ?? []) {
        if (to !== file.path)
          edges.push({ from: file.path, to, specifier: record.specifier, line: record.line });
      }
    }
  }
  return edges;
}

/** A file's imports and importers. */
export function fileImportGraph(
  files: readonly ParsedFile[],
  path: string,
  edges: readonly ImportEdge[],
  resolver: ModuleResolver,
): FileImportGraph | undefined {
  const file = files.find((candidate) => candidate.path === path);
  if (file === undefined) return undefined;
  const importedBy = edges
    .filter((edge) => edge.to === path)
    .map((edge) => ({ path: edge.from, line: edge.line, specifier: edge.specifier }));
  return { path, imports: resolveImports(file, resolver), importedBy };
}

/** The repo-wide summary: most-imported files, entry points, unresolved relative imports. */
export function summarizeImportGraph(
  files: readonly ParsedFile[],
  edges: readonly ImportEdge[],
  limit = 15,
): ImportGraphSummary {
  const importers = new Map<string, Set<string>>();
  const importCounts = new Map<string, number>();
  for (const edge of edges) {
    importers.set(edge.to, (importers.get(edge.to) ?? new Set()).add(edge.from));
    importCounts.set(edge.from, (importCounts.get(edge.from) ?? 0) + 1);
  }
  const mostImported = [...importers]
    .map(([path, from]) => ({ path, importedBy: from.size }))
    .sort((left, right) => right.importedBy - left.importedBy || (left.path < right.path ? -1 : 1));
  const entryPoints = files
    .filter((file) => !importers.has(file.path) && importCounts.has(file.path))
    .map((file) => ({ path: file.path, imports: importCounts.get(file.path) ?? 0 }))
    .sort((left, right) => right.imports - left.imports || (left.path < right.path ? -1 : 1));
  const resolvedKeys = new Set(edges.map((edge) => `${edge.from}\n${edge.specifier}`));
  const unresolved = files
    .flatMap((file) =>
      file.imports
        .filter((record) => record.specifier.startsWith('.'))
        .map((record) => ({ path: file.path, specifier: record.specifier, line: record.line })),
    )
    .filter((record) => !resolvedKeys.has(`${record.path}\n${record.specifier}`));
  return {
    files: files.length,
    edges: edges.length,
    mostImported: mostImported.slice(0, limit),
    entryPoints: entryPoints.slice(0, limit),
    unresolved: unresolved.slice(0, limit),
    totals: {
      mostImported: mostImported.length,
      entryPoints: entryPoints.length,
      unresolved: unresolved.length,
    },
  };
}
