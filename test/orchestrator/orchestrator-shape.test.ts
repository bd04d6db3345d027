import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const orchestrator = fileURLToPath(new URL('../../src/orchestrator/', import.meta.url));

/** Every `.ts` file under `src/orchestrator/`, relative to it. */
function orchestratorFiles(folder = orchestrator): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? orchestratorFiles(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [relative(orchestrator, join(folder, entry.name))]
        : [],
  );
}

/** The files of `src/orchestrator/` that `file` imports, types included. */
function orchestratorImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(orchestrator, file), 'utf8'), true, true);
  return importedFiles
    .map((imported) => resolve(dirname(join(orchestrator, file)), imported.fileName.replace(/\.js$/, '.ts')))
    .filter((path) => path.startsWith(orchestrator))
    .map((path) => relative(orchestrator, path));
}

describe('src/orchestrator reads like the simplest thing that is correct', () => {
  const files = orchestratorFiles();

  it('has no import cycle, type-only imports included', () => {
    const imports = new Map(files.map((file) => [file, orchestratorImports(file)]));
    const cycles = new Set<string>();
    const done = new Set<string>();
    const visit = (file: string, path: readonly string[]): void => {
      const start = path.indexOf(file);
      if (start >= 0) {
        cycles.add([...path.slice(start), file].join(' -> '));
        return;
      }
      if (done.has(file)) return;
      for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect([...cycles]).toEqual([]);
  });

  it('has no file over 300 lines', () => {
    const long = files
      .map((file) => [file, readFileSync(join(orchestrator, file), 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 300);
    expect(long).toEqual([]);
  });

  it('asserts nothing about the context window with a non-null assertion', () => {
    for (const file of files) {
      expect(readFileSync(join(orchestrator, file), 'utf8'), file).not.toMatch(/contextWindow!/);
    }
  });
});
