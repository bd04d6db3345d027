import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Sandbox } from '../../src/explore/index.js';
import { createSearchTextTool } from '../../src/explore/tools/search-text.js';

const context = { signal: new AbortController().signal } as never;
let root: string;

/** Moves a path's timestamps an hour back, so the listing cache does not see it as just changed. */
async function age(...paths: string[]): Promise<void> {
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const path of paths) await utimes(path, anHourAgo, anHourAgo);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'search-listing-'));
  await writeFile(join(root, 'a.ts'), 'needle a\n');
  await writeFile(join(root, '.gitignore'), 'ignored.ts\n');
  await writeFile(join(root, 'ignored.ts'), 'needle ignored\n');
  await age(join(root, '.gitignore'), root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function searchTool(): { search: () => Promise<string>; walks: () => number } {
  const sandbox = new Sandbox({ root });
  const listFiles = vi.spyOn(sandbox, 'listFiles');
  const tool = createSearchTextTool({ sandbox, ripgrep: false });
  return {
    search: async () => (await tool.execute({ pattern: 'needle' } as never, context)) as string,
    walks: () => listFiles.mock.calls.length,
  };
}

describe('search_text file listing', () => {
  it('walks the tree once while nothing in it changes', async () => {
    const { search, walks } = searchTool();
    expect(await search()).toBe('a.ts:1: needle a');
    expect(await search()).toBe('a.ts:1: needle a');
    expect(walks()).toBe(1);
  });

  it('searches an added file and forgets a deleted one at once', async () => {
    const { search, walks } = searchTool();
    expect(await search()).toBe('a.ts:1: needle a');
    await writeFile(join(root, 'b.ts'), 'needle b\n');
    expect(await search()).toBe('a.ts:1: needle a\nb.ts:1: needle b');
    await rm(join(root, 'b.ts'));
    expect(await search()).toBe('a.ts:1: needle a');
    expect(walks()).toBe(3);
  });

  it('sees a .gitignore edited in place', async () => {
    const { search } = searchTool();
    expect(await search()).toBe('a.ts:1: needle a');
    await writeFile(join(root, '.gitignore'), 'a.ts\n');
    expect(await search()).toBe('ignored.ts:1: needle ignored');
  });
});
