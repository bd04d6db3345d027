import type { ImportRecord, ParsedFile } from './code-symbol.js';
import { resolveImport } from './resolve-import.js';

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
  /** Relative imports that resolve to no repo file. */
  readonly unresolved: readonly {
    readonly path: string;
    readonly specifier: string;
    readonly line: number;
  }[];
}

/** Resolves each file's relative imports to repo files. */
export function resolveImports(file: ParsedFile, exists: (path: string) => boolean): ImportRecord[] {
  return file.imports.map((record) => {
    const resolved = resolveImport(file.path, record.specifier, exists);
    return resolved === undefined ? record : { ...record, resolved };
  });
}

/** Every resolved import edge of the repo, in file order. */
export function importEdges(files: readonly ParsedFile[]): ImportEdge[] {
  const known = new Set(files.map((file) => file.path));
  const exists = (path: string): boolean => known.has(path);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const record of resolveImports(file, exists)) {
      if (record.resolved !== undefined)
        edges.push({ from: file.path, to: record.resolved, specifier: record.specifier, line: record.line });
    }
  }
  return edges;
}

/** A file's imports and importers. */
export function fileImportGraph(
  files: readonly ParsedFile[],
  path: string,
  edges: readonly ImportEdge[],
): FileImportGraph | undefined {
  const file = files.find((candidate) => candidate.path === path);
  if (file === undefined) return undefined;
  const known = new Set(files.map((candidate) => candidate.path));
  const importedBy = edges
    .filter((edge) => edge.to === path)
    .map((edge) => ({ path: edge.from, line: edge.line, specifier: edge.specifier }));
  return { path, imports: resolveImports(file, (candidate) => known.has(candidate)), importedBy };
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
    .sort((left, right) => right.importedBy - left.importedBy || (left.path < right.path ? -1 : 1))
    .slice(0, limit);
  const entryPoints = files
    .filter((file) => !importers.has(file.path) && importCounts.has(file.path))
    .map((file) => ({ path: file.path, imports: importCounts.get(file.path) ?? 0 }))
    .sort((left, right) => right.imports - left.imports || (left.path < right.path ? -1 : 1))
    .slice(0, limit);
  const resolvedKeys = new Set(edges.map((edge) => `${edge.from}\n${edge.specifier}`));
  const unresolved = files
    .flatMap((file) =>
      file.imports
        .filter((record) => record.specifier.startsWith('.'))
        .map((record) => ({ path: file.path, specifier: record.specifier, line: record.line })),
    )
    .filter((record) => !resolvedKeys.has(`${record.path}\n${record.specifier}`))
    .slice(0, limit);
  return { files: files.length, edges: edges.length, mostImported, entryPoints, unresolved };
}
