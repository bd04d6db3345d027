import { mkdir, mkdtemp, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index.js';
import { runKillableChild } from '../../support/run-killable-child.js';

const child = fileURLToPath(new URL('./fixtures/watching-child.ts', import.meta.url));

let root: string;

/** Moves a path's timestamps an hour back, so a listing taken now is not racy. */
async function age(...paths: string[]): Promise<void> {
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const path of paths) await utimes(join(root, path), anHourAgo, anHourAgo);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'file-changes-'));
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src/a.ts'), 'export const alpha = 1;\n');
  await writeFile(join(root, 'src/b.ts'), 'export const beta = 2;\n');
  await writeFile(join(root, '.gitignore'), 'generated/\n');
  await age('src/a.ts', 'src/b.ts', '.gitignore', 'src', '.');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Where each name is declared, as `path` lists; what a user of the index sees. */
async function declared(index: CodeIndex, names: readonly string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const name of names) {
    found[name] = (await index.definitions(name)).map((definition) => definition.path);
  }
  return found;
}

const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

/** The edits every way of noticing changes must see, each followed by the answers expected after it. */
const edits: readonly {
  readonly what: string;
  readonly edit: () => Promise<void>;
  readonly files: number;
  readonly declared: Record<string, string[]>;
}[] = [
  {
    what: 'a file changed in place',
    edit: () => writeFile(join(root, 'src/a.ts'), 'export const alpha = 1;\nexport const gamma = 2;\n'),
    files: 2,
    declared: { alpha: ['src/a.ts'], beta: ['src/b.ts'], gamma: ['src/a.ts'], delta: [], epsilon: [] },
  },
  {
    what: 'a file added in a new folder',
    edit: async () => {
      await mkdir(join(root, 'src/deep'));
      await writeFile(join(root, 'src/deep/c.ts'), 'export const delta = 3;\n');
    },
    files: 3,
    declared: {
      alpha: ['src/a.ts'],
      beta: ['src/b.ts'],
      gamma: ['src/a.ts'],
      delta: ['src/deep/c.ts'],
      epsilon: [],
    },
  },
  {
    what: 'a file replaced by a rename, as editors save',
    edit: async () => {
      await writeFile(join(root, 'src/.b.ts.swp'), 'export const epsilon = 5;\n');
      await rename(join(root, 'src/.b.ts.swp'), join(root, 'src/b.ts'));
    },
    files: 3,
    declared: {
      alpha: ['src/a.ts'],
      beta: [],
      gamma: ['src/a.ts'],
      delta: ['src/deep/c.ts'],
      epsilon: ['src/b.ts'],
    },
  },
  {
    what: 'a folder deleted',
    edit: () => rm(join(root, 'src/deep'), { recursive: true }),
    files: 2,
    declared: { alpha: ['src/a.ts'], beta: [], gamma: ['src/a.ts'], delta: [], epsilon: ['src/b.ts'] },
  },
  {
    what: 'a .gitignore edited in place',
    edit: () => writeFile(join(root, '.gitignore'), 'generated/\nsrc/a.ts\n'),
    files: 1,
    declared: { alpha: [], beta: [], gamma: [], delta: [], epsilon: ['src/b.ts'] },
  },
];

describe('CodeIndex: files changed between questions', () => {
  it('lists again when a .gitignore is edited in place', async () => {
    const index = new CodeIndex({ root, cache: false });
    try {
      expect((await index.definitions('alpha')).map((definition) => definition.path)).toEqual(['src/a.ts']);
      await writeFile(join(root, '.gitignore'), 'generated/\nsrc/a.ts\n');
      expect(await index.definitions('alpha')).toEqual([]);
      expect((await index.importGraph()).files).toBe(1);
    } finally {
      await index.close();
    }
  });

  for (const watch of [true, false]) {
    it(`sees each change in the next answer with watch: ${watch}`, async () => {
      const index = new CodeIndex({ root, cache: false, watch });
      try {
        expect(await declared(index, names)).toMatchObject({ alpha: ['src/a.ts'], beta: ['src/b.ts'] });
        for (const step of edits) {
          await step.edit();
          expect(await declared(index, names), step.what).toEqual(step.declared);
          expect((await index.importGraph()).files, step.what).toBe(step.files);
        }
      } finally {
        await index.close();
      }
    });
  }

  it('gives the same answers watching as stat’ing, edit after edit', async () => {
    const watching = new CodeIndex({ root, cache: false, watch: true });
    const stating = new CodeIndex({ root, cache: false, watch: false });
    try {
      expect(await declared(watching, names)).toEqual(await declared(stating, names));
      for (const step of edits) {
        await step.edit();
        expect(await declared(watching, names), step.what).toEqual(await declared(stating, names));
        expect(await watching.importGraph(), step.what).toEqual(await stating.importGraph());
      }
    } finally {
      await watching.close();
      await stating.close();
    }
  });

  it('sees an edit that keeps the file’s size and modification time, while watching', async () => {
    const index = new CodeIndex({ root, cache: false });
    try {
      expect((await index.definitions('alpha')).map((definition) => definition.path)).toEqual(['src/a.ts']);
      const before = await stat(join(root, 'src/a.ts'));
      await writeFile(join(root, 'src/a.ts'), 'export const omega = 1;\n');
      await utimes(join(root, 'src/a.ts'), before.atime, before.mtime);
      expect((await stat(join(root, 'src/a.ts'))).mtimeMs).toBe(before.mtimeMs);
      expect(await index.definitions('alpha')).toEqual([]);
      expect((await index.definitions('omega')).map((definition) => definition.path)).toEqual(['src/a.ts']);
    } finally {
      await index.close();
    }
  });

  it('finds references in a file whose edit kept its size and modification time, while watching', async () => {
    await writeFile(join(root, 'src/b.ts'), "import { alpha } from './a.js';\nexport const beta = alpha;\n");
    await age('src/b.ts', 'src');
    const index = new CodeIndex({ root, cache: false });
    const referencing = async (): Promise<string[]> =>
      (await index.references('alpha', { includeDeclaration: true })).files.map((file) => file.path);
    try {
      expect(await referencing()).toEqual(['src/a.ts', 'src/b.ts']);
      const before = await stat(join(root, 'src/a.ts'));
      // The same size: the watcher's event alone tells the file changed.
      await writeFile(join(root, 'src/a.ts'), 'export const alpha = 7;\n');
      await utimes(join(root, 'src/a.ts'), before.atime, before.mtime);
      expect(await referencing()).toEqual(['src/a.ts', 'src/b.ts']);
      expect((await index.definitions('alpha'))[0]?.snippet).toContain('alpha = 7');
    } finally {
      await index.close();
    }
  });

  it('keeps answering, by stat’ing, after close()', async () => {
    const index = new CodeIndex({ root, cache: false });
    expect((await index.definitions('alpha')).map((definition) => definition.path)).toEqual(['src/a.ts']);
    await index.close();
    await writeFile(join(root, 'src/a.ts'), 'export const alpha = 1;\nexport const gamma = 2;\n');
    await writeFile(join(root, 'src/c.ts'), 'export const delta = 3;\n');
    expect(await declared(index, ['gamma', 'delta'])).toEqual({ gamma: ['src/a.ts'], delta: ['src/c.ts'] });
  });

  it('never keeps the process alive: a process that watches ends when its work does', async () => {
    // Killed at 30 s: a watcher holding the process open fails the test, not the suite.
    const { stdout } = await runKillableChild(child, [root]);
    expect(JSON.parse(stdout)).toEqual({ before: ['src/a.ts'], after: ['src/a.ts'] });
  }, 40_000);
});
