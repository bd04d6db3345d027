import { z } from 'zod';
import type { CodeIndex } from '../../../explore/index/code-index.js';
import { defineContextProvider } from '../context-provider.js';
import type { ContextProviderRegistry } from '../context-provider.js';

/** The providers backed by the code index: `symbol_list`, `import_graph` and `repo_map`. */
export function createIndexProviders(index: CodeIndex): ContextProviderRegistry {
  return {
    symbol_list: defineContextProvider({
      name: 'symbol_list',
      description:
        'The functions, classes, methods, variables and types declared in a file, with line ranges and signatures.',
      parameters: z.object({ file_path: z.string() }),
      fulfill: async ({ file_path: path }) => {
        const { symbols } = await index.symbols(path);
        if (symbols.length === 0) return `No symbols declared in ${path}.`;
        return symbols
          .map((symbol) => {
            const owner = symbol.container === undefined ? '' : `${symbol.container}.`;
            const exported = symbol.exported ? 'export ' : '';
            return `${symbol.startLine}-${symbol.endLine} ${exported}${symbol.kind} ${owner}${symbol.name}: ${symbol.signature}`;
          })
          .join('\n');
      },
    }),
    import_graph: defineContextProvider({
      name: 'import_graph',
      description: 'What a file imports (resolved to repo files where possible) and which files import it.',
      parameters: z.object({ file_path: z.string() }),
      fulfill: async ({ file_path: path }, { signal }) => {
        const graph = await index.importGraph({ path, ...(signal === undefined ? {} : { signal }) });
        const imports = graph.imports.map(
          (record) =>
            `  ${record.line}: ${record.specifier}${record.resolved === undefined ? '' : ` -> ${record.resolved}`}`,
        );
        const importers = graph.importedBy.map(
          (importer) => `  ${importer.path}:${importer.line} (${importer.specifier})`,
        );
        return [
          `${graph.path} imports:`,
          ...(imports.length > 0 ? imports : ['  (nothing)']),
          'imported by:',
          ...(importers.length > 0 ? importers : ['  (no file)']),
        ].join('\n');
      },
    }),
    repo_map: defineContextProvider({
      name: 'repo_map',
      description:
        'A ranked overview of the repository: the most important files and their key symbol signatures.',
      parameters: z.object({
        max_tokens: z.number().int().min(128).max(8192).optional(),
        focus_files: z.array(z.string()).optional(),
      }),
      fulfill: async (params, { signal }) => {
        const map = await index.repoMap({
          ...(params.max_tokens === undefined ? {} : { maxTokens: params.max_tokens }),
          ...(params.focus_files === undefined ? {} : { focusFiles: params.focus_files }),
          ...(signal === undefined ? {} : { signal }),
        });
        return map.text;
      },
    }),
  };
}
