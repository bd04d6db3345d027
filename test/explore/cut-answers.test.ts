import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeTools } from '../../src/explore/index.js';
import type { CreateCodeToolsOptions } from '../../src/explore/index.js';

const context = { signal: new AbortController().signal } as never;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cut-answers-'));
  await writeFile(join(root, 'lib.ts'), 'export function target(): number {\n  return 1;\n}\n');
  await mkdir(join(root, 'uses'));
  // 3 files x 90 lines: 270 references in 3 files, over the 200 shown.
  for (const name of ['a', 'b', 'c']) {
    await writeFile(
      join(root, 'uses', `${name}.ts`),
      `import { target } from '../lib';\n${'target();\n'.repeat(90)}`,
    );
  }
  // 18 entry points, each with an unresolved import: over the 15 listed.
  await mkdir(join(root, 'entries'));
  for (let index = 0; index < 18; index += 1) {
    await writeFile(
      join(root, 'entries', `e${String(index).padStart(2, '0')}.ts`),
      `import { target } from '../lib';\nimport { gone } from './missing-${index}';\nexport const value${index} = target() + gone;\n`,
    );
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function run(
  tool: string,
  input: Record<string, unknown>,
  options: Partial<CreateCodeToolsOptions> = {},
): Promise<string> {
  const registry = createCodeTools({ root, tools: [tool], ripgrep: false, ...options });
  return (await registry[tool]?.execute(input as never, context)) as string;
}

describe('cut answers say what they covered', () => {
  it('get_references counts every file and says which part it shows', async () => {
    const output = await run('get_references', { symbol: 'target' });
    expect(output.split('\n')[0]).toBe('309 references to "target" in 21 files (declared at lib.ts:1):');
    expect(output).toContain(
      '[Showing the first 200 of 309 references in path order, from 20 of 21 files (through uses/b.ts). ' +
        'For the rest, pass path to narrow to one declaration, or search_text for the name with path set to a directory not yet covered.]',
    );
  });

  it('import_graph says how many entries each cut list had', async () => {
    const output = await run('import_graph', {});
    expect(output).toContain(
      "Entry points (imported by no file) (top 15 of 21 entry points; pass path to see one file's imports and importers):",
    );
    expect(output).toContain(
      "Unresolved relative imports (top 15 of 18 unresolved imports; pass path to see one file's imports and importers):",
    );
    expect(output).toMatch(/^Most imported:$/m);
  });

  it('repo_map says how many ranked files and definitions it shows of all', async () => {
    const output = await run('repo_map', { max_tokens: 64 });
    expect(output.split('\n')[0]).toMatch(
      /^Repo map: \d+ of \d+ ranked files, signatures of the top \d+ of \d+ ranked definitions, ~\d+ tokens \(budget 64; 1 token ~ 4 characters\)\. Raise max_tokens or pass focus_files \/ focus_symbols to see more\. Format: path, then line: signature\.$/,
    );
    const [, shownFiles, allFiles, shownDefinitions, allDefinitions] =
      /(\d+) of (\d+) ranked files, signatures of the top (\d+) of (\d+)/.exec(output) ?? [];
    expect(Number(shownFiles) < Number(allFiles) || Number(shownDefinitions) < Number(allDefinitions)).toBe(
      true,
    );
  });

  it('list_files and search_text say where a walk cut short by maxFiles stopped', async () => {
    const limits = { maxFiles: 4 };
    expect(await run('list_files', { path: 'entries', max_results: 100 }, { limits })).toContain(
      '[The walk stopped at its cap of 4 files (limits.maxFiles) with more to go, so these are the first 4 found, breadth-first. ' +
        'Narrow with `path` or `pattern` to list the rest.]',
    );
    expect(await run('list_files', { path: 'entries', pattern: 'e17.ts' }, { limits: { maxFiles: 1 } })).toBe(
      'No files matching "e17.ts" under "entries" so far: The walk stopped after visiting 10 entries (10 x limits.maxFiles) ' +
        'with more to go; it had found 0 matching files. Narrow with `path` or `pattern` to list the rest.',
    );
    expect(await run('search_text', { pattern: 'target', path: 'entries' }, { limits })).toContain(
      '[Only 4 files were searched. The walk stopped at its cap of 4 files (limits.maxFiles) with more to go, ' +
        'so these are the first 4 found, breadth-first. Narrow with path or glob to search the rest.]',
    );
  });
});
