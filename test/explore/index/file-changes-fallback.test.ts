import type { EventEmitter } from 'node:events';
import type * as FileSystem from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodeIndex } from '../../../src/explore/index.js';

/** How the mocked `fs.watch` behaves: the real one, one that throws, or one whose watchers fail. */
const watchMode = vi.hoisted(() => ({
  current: 'real' as 'real' | 'throw' | 'fail-later',
  watchers: [] as EventEmitter[],
}));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof FileSystem>();
  const watch = (...args: Parameters<typeof fs.watch>) => {
    if (watchMode.current === 'throw') {
      throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
        code: 'ENOSPC',
      });
    }
    const watcher = fs.watch(...args);
    watchMode.watchers.push(watcher);
    return watcher;
  };
  return { ...fs, default: { ...fs, watch }, watch };
});

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'file-changes-fallback-'));
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src/a.ts'), 'export const alpha = 1;\n');
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const path of ['src/a.ts', 'src', '.']) await utimes(join(root, path), anHourAgo, anHourAgo);
  watchMode.watchers.length = 0;
});

afterEach(async () => {
  watchMode.current = 'real';
  await rm(root, { recursive: true, force: true });
});

async function declaredIn(index: CodeIndex, name: string): Promise<string[]> {
  return (await index.definitions(name)).map((definition) => definition.path);
}

/** Edits in place (same folder entries) and adds a file: both must show in the next answers. */
async function expectChangesSeen(index: CodeIndex): Promise<void> {
  expect(await declaredIn(index, 'alpha')).toEqual(['src/a.ts']);
  await writeFile(join(root, 'src/a.ts'), 'export const alpha = 1;\nexport const gamma = 2;\n');
  expect(await declaredIn(index, 'gamma')).toEqual(['src/a.ts']);
  await writeFile(join(root, 'src/c.ts'), 'export const delta = 3;\n');
  expect(await declaredIn(index, 'delta')).toEqual(['src/c.ts']);
}

describe('CodeIndex: watching falls back to stat’ing', () => {
  it('watches the folders while fs.watch works', async () => {
    const index = new CodeIndex({ root, cache: false });
    await expectChangesSeen(index);
    expect(watchMode.watchers.length).toBeGreaterThan(0);
    index.close();
  });

  it('when the system has no watches left (ENOSPC)', async () => {
    watchMode.current = 'throw';
    const index = new CodeIndex({ root, cache: false });
    await expectChangesSeen(index);
    expect(watchMode.watchers).toEqual([]);
  });

  it('when a watcher fails after it started', async () => {
    const index = new CodeIndex({ root, cache: false });
    expect(await declaredIn(index, 'alpha')).toEqual(['src/a.ts']);
    expect(watchMode.watchers.length).toBeGreaterThan(0);
    for (const watcher of watchMode.watchers) watcher.emit('error', new Error('EACCES'));
    // An edit no event reports now: only a stat can see it.
    await writeFile(join(root, 'src/a.ts'), 'export const alpha = 1;\nexport const gamma = 2;\n');
    expect(await declaredIn(index, 'gamma')).toEqual(['src/a.ts']);
    index.close();
  });
});
