import { z } from 'zod';
import type { CodeIndex } from '../../../explore/index/code-index.js';
import type { Sandbox } from '../../../explore/sandbox/sandbox.js';
import { defineContextProvider } from '../context-provider.js';

/** Options of {@link createDiscoverContextProvider}. */
export interface DiscoverContextProviderOptions {
  readonly index: CodeIndex;
  readonly sandbox: Sandbox;
  /** Most importers listed per target. @default 20 */
  readonly maxImporters?: number;
}

/**
 * Creates `discover_context`: an outline of each target's imports and importers (by path and
 * line), then the full text of each target, then the text of every repo file the targets
 * import (dependencies are always included; importers' text is one `read_file` away).
 */
export function createDiscoverContextProvider(options: DiscoverContextProviderOptions) {
  const { index, sandbox } = options;
  const maxImporters = options.maxImporters ?? 20;
  return defineContextProvider({
    name: 'discover_context',
    description:
      'The target files with the files they import (always included) and the list of files importing them.',
    parameters: z.object({ target_files: z.array(z.string()).min(1).max(20) }),
    fulfill: async ({ target_files: targets }, { signal }) => {
      const outline: string[] = [];
      const texts: string[] = [];
      const shown = new Set<string>();
      const show = async (path: string, role: string): Promise<void> => {
        if (shown.has(path)) return;
        shown.add(path);
        const file = await sandbox.readText(path);
        texts.push(`--- ${role}: ${file.path}\n${file.text}`);
      };
      const dependencies: { path: string; of: string }[] = [];
      for (const target of targets) {
        signal?.throwIfAborted();
        const graph = await index.importGraph({ path: target, ...(signal === undefined ? {} : { signal }) });
        await show(graph.path, 'target');
        const resolved = graph.imports.flatMap((record) =>
          record.resolved === undefined ? [] : [record.resolved],
        );
        dependencies.push(...resolved.map((path) => ({ path, of: graph.path })));
        const importers = graph.importedBy
          .slice(0, maxImporters)
          .map((importer) => `${importer.path}:${importer.line}`);
        const more =
          graph.importedBy.length > maxImporters
            ? [`... and ${graph.importedBy.length - maxImporters} more`]
            : [];
        outline.push(
          `${graph.path}`,
          `  imports: ${resolved.join(', ') || '(no repo files)'}`,
          `  imported by: ${[...importers, ...more].join(', ') || '(no file)'}`,
        );
      }
      // Targets first, then dependencies: a context budget cuts dependencies before targets.
      for (const dependency of dependencies) await show(dependency.path, `dependency of ${dependency.of}`);
      return [`Targets, their imports and importers:\n${outline.join('\n')}`, ...texts].join('\n\n');
    },
  });
}
