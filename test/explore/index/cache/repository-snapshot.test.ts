import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodeIndex } from '../../../../src/explore/index/code-index.js';
import type { CodeIndexOptions } from '../../../../src/explore/index/code-index.js';
import { isModuleConfigFile } from '../../../../src/explore/index/modules/module-resolver.js';
import { parserIdentity } from '../../../../src/explore/index/cache/parser-identity.js';
import { RepositorySnapshot } from '../../../../src/explore/index/cache/repository-snapshot.js';
import { snapshotFolder } from '../../../../src/explore/index/cache/parse-cache.js';
import { Sandbox } from '../../../../src/explore/sandbox/sandbox.js';

const fixture = fileURLToPath(new URL('../../../fixtures/code-index/polyglot', import.meta.url));
const tsx = fileURLToPath(new URL('../../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const child = fileURLToPath(new URL('../fixtures/repository-snapshot-child.ts', import.meta.url));
/** Each child is killed at this age whatever it does, so none can hold up the suite. */
const childDeadlineMs = 60_000;
/** How long an index in this process may take to save its snapshot. */
const saveDeadlineMs = 10_000;

/** Runs one indexing process asking where `name` is defined; resolves with its answer once it has ended. */
function runChild(root: string, cache: string, name: string, ending?: 'exit'): Promise<string[]> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['NODE_OPTIONS'];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [tsx, child, root, cache, name, ...(ending === undefined ? [] : [ending])],
      { env, timeout: childDeadlineMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`child failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as string[]);
      },
    );
  });
}

/** The snapshot files in a cache folder. */
async function snapshotsIn(cache: string): Promise<string[]> {
  const folder = snapshotFolder(cache);
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.map((name) => join(folder, name));
}

/** Waits, at most `saveDeadlineMs`, until the folder holds a snapshot file written after `since`. */
async function savedSnapshot(cache: string, since = 0): Promise<string> {
  const deadline = Date.now() + saveDeadlineMs;
  for (;;) {
    for (const path of await snapshotsIn(cache)) {
      if (!path.endsWith('.tmp') && (await stat(path)).mtimeMs > since) return path;
    }
    if (Date.now() > deadline) throw new Error(`no snapshot saved in ${cache} within ${saveDeadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A code index over `root` whose sandbox notes every source file it reads (configuration files aside). */
function countingIndex(
  root: string,
  options: Omit<CodeIndexOptions, 'root' | 'sandbox'>,
): { readonly index: CodeIndex; readonly reads: string[] } {
  const sandbox = new Sandbox({ root });
  const readText = sandbox.readText.bind(sandbox);
  const readTextSync = sandbox.readTextSync.bind(sandbox);
  const reads: string[] = [];
  vi.spyOn(sandbox, 'readText').mockImplementation((path, readOptions) => {
    if (!isModuleConfigFile(path)) reads.push(path);
    return readText(path, readOptions);
  });
  vi.spyOn(sandbox, 'readTextSync').mockImplementation((path, readOptions) => {
    if (!isModuleConfigFile(path)) reads.push(path);
    return readTextSync(path, readOptions);
  });
  // No background warming: it would read and cache more files than the question did.
  const index = new CodeIndex({ ...options, sandbox, warm: false });
  opened.push(index);
  return { index, reads };
}

/** The indexes a test made: closed before its folder is removed, so no delayed save writes into it after. */
const opened: CodeIndex[] = [];

let scratch: string;
let repo: string;
let cache: string;

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'repository-snapshot-'));
  repo = join(scratch, 'repo');
  cache = join(scratch, 'cache');
  await cp(fixture, repo, { recursive: true });
  // Old enough that the first process trusts every file (a file modified just before it is read is not trusted).
  const past = new Date(Date.now() - 60_000);
  for (const entry of await readdir(repo, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), past, past);
  }
  // The folders too, so the listing is provable (a folder changed just before the walk is not trusted).
  for (const entry of await readdir(repo, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) await utimes(join(entry.parentPath, entry.name), past, past);
  }
  await utimes(repo, past, past);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((index) => index.close()));
  vi.restoreAllMocks();
  await rm(scratch, { recursive: true, force: true });
});

describe('the repository snapshot, across processes', () => {
  /** A child answers and leaves its snapshot; this process then answers reading no source file. */
  async function answeredFromTheSnapshot(ending?: 'exit'): Promise<void> {
    expect(await runChild(repo, cache, 'Engine', ending)).toEqual(['python/pkg/core.py:11']);
    expect(await snapshotsIn(cache)).toHaveLength(1);

    const { index, reads } = countingIndex(repo, { cache: { directory: cache } });
    expect((await index.definitions('Engine')).map((found) => `${found.path}:${found.line}`)).toEqual([
      'python/pkg/core.py:11',
    ]);
    expect(reads).toEqual([]);
  }

  it('lets a second process answer without reading any unchanged source file', async () => {
    await answeredFromTheSnapshot();
  }, 150_000);

  it('is saved by close(): a process that exits right after it leaves the cache whole', async () => {
    await answeredFromTheSnapshot('exit');
  }, 150_000);

  it('re-reads a file whose mtime changed (same size) and one whose size changed (same mtime)', async () => {
    await runChild(repo, cache, 'Engine');
    const touched = join(repo, 'python/pkg/core.py');
    const later = new Date(Date.now() - 30_000);
    await utimes(touched, later, later);
    const resized = join(repo, 'web/client.ts');
    const { mtime } = await stat(resized);
    await writeFile(resized, `${await readFile(resized, 'utf8')}\nexport const addedLater = 1;\n`);
    await utimes(resized, mtime, mtime);

    const { index, reads } = countingIndex(repo, { cache: { directory: cache } });
    expect((await index.definitions('Engine')).map((found) => found.path)).toEqual(['python/pkg/core.py']);
    expect((await index.definitions('addedLater')).map((found) => found.path)).toEqual(['web/client.ts']);
    expect(new Set(reads)).toEqual(new Set(['python/pkg/core.py', 'web/client.ts']));
  }, 150_000);

  it('ignores and replaces a truncated, a garbled and a foreign snapshot', async () => {
    await runChild(repo, cache, 'Engine');
    const [location = ''] = await snapshotsIn(cache);
    const bytes = await readFile(location);
    const other = join(scratch, 'other');
    await cp(repo, other, { recursive: true });
    const otherCache = join(scratch, 'other-cache');
    await runChild(other, otherCache, 'Engine');
    const [foreign = ''] = await snapshotsIn(otherCache);

    const garbled = Buffer.from(bytes);
    garbled[garbled.length - 7] = (garbled[garbled.length - 7] ?? 0) ^ 0xff;
    const damages: readonly [string, Buffer][] = [
      ['truncated', bytes.subarray(0, Math.floor(bytes.length / 2))],
      ['garbled', garbled],
      ['foreign', await readFile(foreign)],
    ];
    for (const [damage, damaged] of damages) {
      await writeFile(location, damaged);
      const writtenAt = (await stat(location)).mtimeMs;
      const { index, reads } = countingIndex(repo, { cache: { directory: cache } });
      expect(
        (await index.definitions('Engine')).map((found) => found.path),
        damage,
      ).toEqual(['python/pkg/core.py']);
      expect(reads.length, damage).toBeGreaterThan(10);
      await savedSnapshot(cache, writtenAt);
      const rebuilt = RepositorySnapshot.decode(await readFile(location), {
        root: index.root,
        identity: parserIdentity(),
      });
      expect(rebuilt?.size, damage).toBeGreaterThan(10);
    }
  }, 200_000);

  it('takes two processes saving one snapshot at once: a whole snapshot is left and trusted', async () => {
    const [left, right] = await Promise.all([
      runChild(repo, cache, 'Engine'),
      runChild(repo, cache, 'fetchOrders'),
    ]);
    expect(left).toEqual(['python/pkg/core.py:11']);
    expect(right).toEqual(['web/client.ts:1']);
    const snapshots = await snapshotsIn(cache);
    expect(snapshots).toHaveLength(1);
    const { index, reads } = countingIndex(repo, { cache: { directory: cache } });
    expect((await index.definitions('Engine')).map((found) => found.path)).toEqual(['python/pkg/core.py']);
    expect(reads).toEqual([]);
  }, 150_000);

  it('reuses the stored listing while its folders hold; a file added, a .gitignore edited or other sandbox options walk again', async () => {
    const first = new CodeIndex({ root: repo, cache: { directory: cache }, warm: false });
    await first.definitions('Engine');
    await first.close();
    const process = async (
      options: { readonly exclude?: readonly string[] } = {},
    ): Promise<{ readonly walks: number; readonly found: readonly string[] }> => {
      const sandbox = new Sandbox({ root: repo, ...options });
      const listFiles = vi.spyOn(sandbox, 'listFiles');
      const index = new CodeIndex({ sandbox, cache: { directory: cache }, warm: false });
      const found = (await index.definitions('Engine')).map((definition) => definition.path).sort();
      await index.close();
      return { walks: listFiles.mock.calls.length, found };
    };
    expect(await process()).toEqual({ walks: 0, found: ['python/pkg/core.py'] });
    expect(await process()).toEqual({ walks: 0, found: ['python/pkg/core.py'] });

    await writeFile(join(repo, 'python/pkg/engine.py'), 'class Engine:\n    pass\n');
    expect(await process()).toEqual({ walks: 1, found: ['python/pkg/core.py', 'python/pkg/engine.py'] });

    await writeFile(join(repo, '.gitignore'), 'python/pkg/engine.py\n');
    expect(await process()).toEqual({ walks: 1, found: ['python/pkg/core.py'] });

    // Stored under other options: this sandbox walks (and stores its own listing).
    expect(await process({ exclude: ['python/pkg/core.py'] })).toEqual({ walks: 1, found: [] });
  }, 60_000);

  it('is saved by a process whose only question was the repo map: the next one maps the repository reading no source file', async () => {
    const first = new CodeIndex({ root: repo, cache: { directory: cache }, warm: false });
    const map = await first.repoMap();
    await first.close();
    expect(await snapshotsIn(cache)).toHaveLength(1);

    const { index, reads } = countingIndex(repo, { cache: { directory: cache } });
    expect(await index.repoMap()).toEqual(map);
    expect(reads).toEqual([]);
  }, 60_000);

  it('saves nothing with cache: false', async () => {
    const { index, reads } = countingIndex(repo, { cache: false });
    await index.definitions('Engine');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(reads.length).toBeGreaterThan(10);
    expect(await readdir(scratch)).toEqual(['repo']);
  });
});

describe('the snapshot prefilter, against the whole-repo program', () => {
  const files: Record<string, string> = {
    'src/accents.ts': 'export const naïve = 1;\nexport const café = { crème: 2 };\n',
    'src/uses-accents.ts':
      "import { naïve, café } from './accents';\nexport const sum = naïve + café.crème + café['crème'];\n",
    'src/registry.ts': "export const registry = { handler: () => 1, 'aria-label': 'x', $store: 2 };\n",
    'src/uses-registry.ts':
      "import { registry } from './registry';\nregistry['handler']();\nexport const label = registry['aria-label'] + registry.$store;\n",
    'src/counter.ts':
      'export class Counter {\n  #count = 0;\n  increment(): number {\n    return ++this.#count;\n  }\n}\n',
    'src/button.tsx': 'export function Button(): null {\n  return null;\n}\n',
    'src/app.tsx': "import { Button } from './button';\nexport const app = <Button />;\n",
    'src/legacy.js': 'function legacyHelper() {}\nmodule.exports = { legacyHelper };\n',
    'src/uses-legacy.js': "const { legacyHelper } = require('./legacy');\nlegacyHelper();\n",
    'tsconfig.json': JSON.stringify({ compilerOptions: { jsx: 'preserve', allowJs: true, strict: true } }),
  };

  it('gives the same definitions and references once every file is trusted from the snapshot', async () => {
    const root = join(scratch, 'shapes');
    const past = new Date(Date.now() - 60_000);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
      await utimes(join(root, path), past, past);
    }
    expect(await runChild(root, cache, 'registry')).toEqual(['src/registry.ts:1']);
    const { index: question, reads } = countingIndex(root, { cache: { directory: cache } });
    const whole = new CodeIndex({ root, scope: 'whole-repo', cache: false });
    await question.definitions('registry');
    expect(reads).toEqual([]);
    const names = new Set<string>();
    for (const path of Object.keys(files).filter((path) => !path.endsWith('.json'))) {
      for (const symbol of (await whole.symbols(path)).symbols) {
        names.add(symbol.name);
        if (symbol.container !== undefined) names.add(`${symbol.container}.${symbol.name}`);
      }
    }
    // Object literal members are no symbols of their own: asked by name too.
    for (const name of ['crème', 'handler', 'aria-label', '$store', '#count', 'Button', 'legacyHelper']) {
      names.add(name);
    }
    for (const name of names) {
      expect(await question.definitions(name), name).toEqual(await whole.definitions(name));
      expect(await question.references(name, { includeDeclaration: true }), name).toEqual(
        await whole.references(name, { includeDeclaration: true }),
      );
    }
  }, 150_000);
});
