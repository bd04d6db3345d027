import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxError } from '../../../src/explore/index.js';
import { createGetDefinitionTool } from '../../../src/explore/tools/get-definition.js';
import { createRepoMapTool } from '../../../src/explore/tools/repo-map.js';
import { CodeIndex } from '../../../src/explore/index/code-index.js';

const context = { signal: new AbortController().signal } as never;
let root: string;
let index: CodeIndex;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'code-index-paths-'));
  await mkdir(join(root, 'lib/adapters'), { recursive: true });
  await writeFile(join(root, 'lib/adapters/fetch.js'), 'export function fetchAdapter() {\n  return 1;\n}\n');
  await writeFile(
    join(root, 'lib/core.js'),
    "import { fetchAdapter } from './adapters/fetch.js';\nexport const core = fetchAdapter();\n",
  );
  // Many files with long names, so a large token budget would produce a map over a small output cap.
  for (let file = 0; file < 60; file += 1) {
    const name = `module_with_a_rather_long_name_${String(file).padStart(2, '0')}`;
    await writeFile(
      join(root, `lib/${name}.js`),
      Array.from({ length: 8 }, (_, fn) => `export function ${name}_function_${fn}(argument) {}\n`).join(''),
    );
  }
  index = new CodeIndex({ root });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('code index paths go through the sandbox', () => {
  it('refuses an absolute or escaping path with the sandbox error instead of finding nothing', async () => {
    await expect(index.definitions('fetchAdapter', { path: '/etc/passwd' })).rejects.toThrow(/is absolute/);
    await expect(index.definitions('fetchAdapter', { path: '../x' })).rejects.toBeInstanceOf(SandboxError);
    await expect(index.references('fetchAdapter', { path: '/etc' })).rejects.toThrow(/is absolute/);
    const tool = createGetDefinitionTool({ index });
    await expect(
      tool.execute({ symbol: 'fetchAdapter', path: '/etc/passwd' } as never, context),
    ).rejects.toThrow(/Path "\/etc\/passwd" is absolute/);
  });

  it('resolves ".." inside a path', async () => {
    const [definition] = await index.definitions('fetchAdapter', { path: 'lib/core/../adapters/fetch.js' });
    expect(definition).toMatchObject({ path: 'lib/adapters/fetch.js', line: 1 });
  });

  it('resolves focus files like the sandbox, refuses bad ones, and names unknown ones', async () => {
    const direct = await index.repoMap({ focusFiles: ['lib/adapters/fetch.js'] });
    const dotted = await index.repoMap({ focusFiles: ['lib/adapters/../adapters/fetch.js'] });
    expect(dotted.unknownFocusFiles).toEqual([]);
    expect(dotted.text).toBe(direct.text);
    await expect(index.repoMap({ focusFiles: ['/etc/passwd'] })).rejects.toThrow(/is absolute/);
    await expect(index.repoMap({ focusFiles: ['../x'] })).rejects.toThrow(/outside the repository root/);

    const tool = createRepoMapTool({ index });
    const output = (await tool.execute(
      { focus_files: ['lib/missing.js', 'lib/core.js'] } as never,
      context,
    )) as string;
    expect(output.split('\n')[1]).toBe(
      '[Focus files not in the index, ignored: lib/missing.js. Pass existing source files (call list_files to see them).]',
    );
    await expect(tool.execute({ focus_files: ['/etc/passwd'] } as never, context)).rejects.toThrow(
      /is absolute/,
    );
  });

  it('keeps repo_map within the output cap and says the budget was limited', async () => {
    const tool = createRepoMapTool({ index, limits: { maxOutputChars: 2000 } });
    const output = (await tool.execute({ max_tokens: 16_384 } as never, context)) as string;
    expect(output.length).toBeLessThanOrEqual(2000);
    expect(output.split('\n')[0]).toMatch(
      /\(budget 500: max_tokens 16384 is limited by the 2000-character output cap; /,
    );
    const unlimited = (await createRepoMapTool({ index }).execute(
      { max_tokens: 8_000 } as never,
      context,
    )) as string;
    expect(unlimited.length).toBeGreaterThan(2000);
    expect(unlimited).not.toMatch(/limited by/);
  });
});
