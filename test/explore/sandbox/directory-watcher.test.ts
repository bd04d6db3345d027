import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryWatcher } from '../../../src/explore/sandbox/directory-watcher.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'directory-watcher-'));
  await writeFile(join(root, 'a.ts'), 'a\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('DirectoryWatcher', () => {
  it('names the files changed and the entries added or deleted before take(), each once', async () => {
    const watcher = await DirectoryWatcher.start(root, ['']);
    expect(watcher).toBeDefined();
    await writeFile(join(root, 'a.ts'), 'a changed\n');
    await writeFile(join(root, 'b.ts'), 'b\n');
    await rm(join(root, 'b.ts'));
    const events = await watcher!.take();
    expect(events.type).toBe('named');
    if (events.type === 'named') {
      expect([...events.changed]).toContain('a.ts');
      expect([...events.renamed]).toContain('b.ts');
    }
    expect(await watcher!.take()).toEqual({ type: 'named', renamed: new Set(), changed: new Set() });
    watcher!.close();
  });

  it('stops naming changes past a flood of events, so the caller checks everything', async () => {
    const watcher = (await DirectoryWatcher.start(root, ['']))!;
    for (let index = 0; index < 1_100; index++) await writeFile(join(root, `f${index}.ts`), 'x\n');
    expect(await watcher.take()).toEqual({ type: 'unknown' });
    expect((await watcher.take()).type).toBe('named');
    watcher.close();
  });

  it('refuses to watch a folder that is not there, and reports failed once closed', async () => {
    expect(await DirectoryWatcher.start(root, ['missing'])).toBeUndefined();
    const watcher = (await DirectoryWatcher.start(root, ['']))!;
    expect(watcher.failed).toBe(false);
    watcher.close();
    expect(watcher.failed).toBe(true);
  });
});
