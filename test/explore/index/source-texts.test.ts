import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFile } from '../../../src/explore/index/cache/repository-snapshot.js';
import type { SnapshotStore } from '../../../src/explore/index/cache/snapshot-store.js';
import { statVersion } from '../../../src/explore/index/file-version.js';
import { SourceTexts } from '../../../src/explore/index/source-texts.js';
import { Sandbox } from '../../../src/explore/sandbox/sandbox.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'source-texts-'));
  const past = new Date(Date.now() - 60_000);
  for (const name of ['a.ts', 'b.ts']) {
    await writeFile(join(root, name), `export const ${name[0]} = 1;\n`);
    // Old enough to be saved: a file modified just before it is read is left out of the snapshot.
    await utimes(join(root, name), past, past);
  }
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function versionsOf(...names: string[]): Promise<Map<string, string>> {
  return new Map(
    await Promise.all(names.map(async (name) => [name, statVersion(await stat(join(root, name)))] as const)),
  );
}

describe('SourceTexts.flush', () => {
  it('also saves the changes made while a save was under way, before it resolves', async () => {
    const writes: string[][] = [];
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const store = {
      read: () => Promise.resolve(undefined),
      write: async (files: readonly SnapshotFile[]) => {
        writes.push(files.map((file) => file.path));
        if (writes.length === 1) {
          started();
          await new Promise<void>((resolve) => (release = resolve));
        }
      },
    } as unknown as SnapshotStore;
    const texts = new SourceTexts({
      sandbox: new Sandbox({ root }),
      maxFileBytes: 1 << 20,
      snapshots: store,
    });

    await texts.update(await versionsOf('a.ts'));
    await firstStarted; // the save after the quiet delay is under way, and held
    await texts.update(await versionsOf('a.ts', 'b.ts'));
    const flushed = texts.flush();
    release();
    await flushed;
    expect(writes).toEqual([['a.ts'], ['a.ts', 'b.ts']]);
  });
});

describe('SourceTexts.update', () => {
  it('reads each file once when two updates run at once', async () => {
    const reads: string[] = [];
    const sandbox = new Sandbox({ root });
    const readTextSync = sandbox.readTextSync.bind(sandbox);
    sandbox.readTextSync = (path, options) => {
      reads.push(path);
      return readTextSync(path, options);
    };
    const texts = new SourceTexts({
      sandbox,
      maxFileBytes: 1 << 20,
      snapshots: {
        read: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 20)),
        write: () => Promise.resolve(),
      } as unknown as SnapshotStore,
    });
    const versions = await versionsOf('a.ts', 'b.ts');
    await Promise.all([texts.update(versions), texts.update(versions), texts.readAll()]);
    expect(reads.sort()).toEqual(['a.ts', 'b.ts']);
    expect(texts.sourceOf('a.ts', versions.get('a.ts') ?? '')?.text).toBe('export const a = 1;\n');
    await texts.flush();
  });
});
