import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import type { CodeIntelligenceToolOptions } from '../index/code-intelligence-tool-options.js';
import { maxOutputCharsOf } from '../index/code-intelligence-tool-options.js';
import type { FileImportGraph, ImportGraphSummary } from '../index/import-graph.js';
import { truncateOutput } from './truncate-output.js';

const parameters = z.object({
  path: z
    .string()
    .optional()
    .describe('A file: show what it imports and what imports it. Omit for a whole-repo summary.'),
});

function formatFile(graph: FileImportGraph): string {
  const repoImports = graph.imports.filter((record) => record.resolved !== undefined);
  // Bare specifiers the repo resolves (tsconfig paths, workspace packages, Python or Go modules) are no packages.
  const packages = [
    ...new Set(
      graph.imports
        .filter((record) => record.resolved === undefined && !record.specifier.startsWith('.'))
        .map((record) => record.specifier),
    ),
  ];
  const lines = [`${graph.path}`, `Imports ${repoImports.length} repo files:`];
  for (const record of repoImports) {
    const more = (record.resolvedFiles ?? []).filter((file) => file !== record.resolved);
    lines.push(`  ${record.resolved} (L${record.line})${more.length === 0 ? '' : ` + ${more.join(', ')}`}`);
  }
  if (packages.length > 0) lines.push(`Packages: ${packages.join(', ')}`);
  lines.push(`Imported by ${graph.importedBy.length} files:`);
  for (const importer of graph.importedBy) lines.push(`  ${importer.path}:${importer.line}`);
  return lines.join('\n');
}

function formatSummary(summary: ImportGraphSummary): string {
  if (summary.files === 0) return 'No source files in the repository, so there is no import graph.';
  const lines = [
    `${summary.files} source ${summary.files === 1 ? 'file' : 'files'}, ${summary.edges} resolved ${summary.edges === 1 ? 'import' : 'imports'}.`,
  ];
  // Headings only over lists that have entries.
  const ofTotal = (shown: number, total: number, noun: string): string =>
    shown < total
      ? ` (top ${shown} of ${total} ${noun}; pass path to see one file's imports and importers)`
      : '';
  if (summary.mostImported.length > 0)
    lines.push(
      `Most imported${ofTotal(summary.mostImported.length, summary.totals.mostImported, 'imported files')}:`,
    );
  for (const entry of summary.mostImported) lines.push(`  ${entry.path} <- ${entry.importedBy} files`);
  if (summary.entryPoints.length > 0)
    lines.push(
      `Entry points (imported by no file)${ofTotal(summary.entryPoints.length, summary.totals.entryPoints, 'entry points')}:`,
    );
  for (const entry of summary.entryPoints) lines.push(`  ${entry.path} (imports ${entry.imports})`);
  if (summary.unresolved.length > 0) {
    lines.push(
      `Unresolved relative imports${ofTotal(summary.unresolved.length, summary.totals.unresolved, 'unresolved imports')}:`,
    );
    for (const entry of summary.unresolved) lines.push(`  ${entry.path}:${entry.line} "${entry.specifier}"`);
  }
  return lines.join('\n');
}

/**
 * Creates the `import_graph` tool: for a file, its imports and importers; without a path,
 * the repo's most-imported files and entry points.
 */
export function createImportGraphTool(options: CodeIntelligenceToolOptions) {
  const maxOutputChars = maxOutputCharsOf(options);
  return defineTool({
    name: 'import_graph',
    description:
      'Module dependency graph from imports/requires resolved to repo files (all languages). With path: what the file imports and which files ' +
      'import it (who depends on it). Without path: the most-imported files and the entry points of the repo.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async ({ path }, context) => {
      const text =
        path === undefined
          ? formatSummary(await options.index.importGraph({ signal: context?.signal }))
          : formatFile(await options.index.importGraph({ path, signal: context?.signal }));
      return truncateOutput(text, maxOutputChars, 'Pass path for one file.');
    },
  });
}
