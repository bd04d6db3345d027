import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const orchestrator = fileURLToPath(new URL('../../../src/orchestrator/', import.meta.url));
const folder = join(orchestrator, 'context-window');

/** The files of `src/orchestrator/` that `file` imports (types included), as paths relative to it. */
function orchestratorImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => resolve(dirname(file), imported.fileName.replace(/\.js$/, '.ts')))
    .filter((path) => path.startsWith(orchestrator))
    .map((path) => relative(orchestrator, path));
}

describe('src/orchestrator/context-window: one self-contained object', () => {
  const files = readdirSync(folder).map((name) => `context-window/${name}`);
  const imports = new Map(files.map((file) => [file, orchestratorImports(join(orchestrator, file))]));

  it('imports nothing of the run (its state, its config) from the rest of the loop', () => {
    for (const [file, imported] of imports) {
      const outside = imported.filter((path) => !path.startsWith('context-window/'));
      // raceAbort is a helper of its own, not the run's.
      expect(outside, file).toEqual(outside.filter((path) => path === 'race-abort.ts'));
    }
  });

  it('has no import cycle among its files', () => {
    const cycles: string[] = [];
    const visit = (file: string, path: readonly string[]): void => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
