import { execFile } from 'node:child_process';
import { appendFile, cp, mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../../src/explore/index/code-index.js';
import { createCodeTools } from '../../../../src/explore/create-code-tools.js';
import { defaultCacheDirectory } from '../../../../src/explore/index/cache/parse-cache-options.js';
import { InvalidArgumentError } from '../../../../src/errors/invalid-argument-error.js';
import { ParseCache } from '../../../../src/explore/index/cache/parse-cache.js';
import { parseScript } from '../../../../src/explore/index/parse-script.js';

const fixture = fileURLToPath(new URL('../../../fixtures/code-index/polyglot', import.meta.url));
const tsx = fileURLToPath(new URL('../../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const child = fileURLToPath(new URL('../fixtures/parse-cache-child.ts', import.meta.url));
/** Each child is killed at this age whatever it does, so none can hold up the suite. */
const childDeadlineMs = 60_000;

interface ChildReport {
  readonly compilerLoadedBySymbols: boolean;
  readonly compilerLoadedByGraph: boolean;
  readonly client: readonly string[];
  readonly python: readonly string[];
  readonly files: number;
  readonly definition: string | undefined;
}

/** Runs one indexing process over `root` with the cache in `cache`; resolves with what it printed. */
function runChild(root: string, cache: string, maxBytes?: number): Promise<ChildReport> {
  const args = [tsx, child, root, cache, ...(maxBytes === undefined ? [] : [String(maxBytes)])];
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['NODE_OPTIONS'];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { env, timeout: childDeadlineMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`child failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as ChildReport);
      },
    );
  });
}

/** Every file below `folder`, with its size. */
async function filesUnder(folder: string): Promise<{ path: string; size: number }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (path) => ({ path, size: (await stat(path)).size })));
}

let scratch: string;
let repo: string;
let cache: string;

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'parse-cache-'));
  repo = join(scratch, 'repo');
  cache = join(scratch, 'cache');
  await cp(fixture, repo, { recursive: true });
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** What a process answering from the cache reports beside the first one's answers: it never loaded the compiler. */
const fromTheCache = { compilerLoadedBySymbols: false, compilerLoadedByGraph: false };

describe('the code index parse cache, across processes', () => {
  it('lets a second process answer from the first one’s parses, without the compiler', async () => {
    const first = await runChild(repo, cache);
    expect(first.compilerLoadedBySymbols).toBe(true);
    expect(first.compilerLoadedByGraph).toBe(true);
    expect(first.client).toContain('function fetchOrders L1');
    expect(first.definition).toBe('python/pkg/core.py:11');
    expect((await filesUnder(cache)).length).toBeGreaterThan(10);

    const second = await runChild(repo, cache);
    expect(second.compilerLoadedBySymbols).toBe(false);
    // Every file's parse is in the cache: the import graph needs no compiler either.
    expect(second.compilerLoadedByGraph).toBe(false);
    expect(second).toEqual({ ...first, ...fromTheCache });
  }, 150_000);

  it('reuses entries for a copied checkout: they are keyed by content, not by folder', async () => {
    const first = await runChild(repo, cache);
    const copy = join(scratch, 'copy');
    await cp(repo, copy, { recursive: true });
    const second = await runChild(copy, cache);
    expect(second).toEqual({ ...first, ...fromTheCache });
  }, 150_000);

  it('rebuilds damaged entries (truncated, garbled, another format) instead of trusting them', async () => {
    const first = await runChild(repo, cache);
    const entries = await filesUnder(cache);
    expect(entries.length).toBeGreaterThan(10);
    await Promise.all(
      entries.map(async ({ path, size }, index) => {
        const bytes = await readFile(path);
        if (index % 3 === 0) await writeFile(path, bytes.subarray(0, Math.floor(size / 2)));
        else if (index % 3 === 1) {
          bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 0xff;
          await writeFile(path, bytes);
        } else {
          bytes.writeUInt32LE(999, 4);
          await writeFile(path, bytes);
        }
      }),
    );
    const damaged = await runChild(repo, cache);
    expect(damaged).toEqual(first);
    const rebuilt = await runChild(repo, cache);
    expect(rebuilt).toEqual({ ...first, ...fromTheCache });
  }, 200_000);

  it('takes two processes indexing into one cache at once, leaving whole entries and no temporary files', async () => {
    const copy = join(scratch, 'copy');
    await cp(repo, copy, { recursive: true });
    const [left, right] = await Promise.all([runChild(repo, cache), runChild(copy, cache)]);
    expect(right).toEqual(left);
    expect(left.definition).toBe('python/pkg/core.py:11');
    const entries = await filesUnder(cache);
    expect(entries.filter(({ path }) => path.endsWith('.tmp'))).toEqual([]);
    const after = await runChild(repo, cache);
    expect(after).toEqual({ ...left, ...fromTheCache });
  }, 200_000);

  it('keeps the cache under maxBytes, dropping the least recently used entries', async () => {
    // Above the repository snapshot (about 10 kB here: every file's words, since the import graph reads them all),
    // below the snapshot and the entries together (about 29 kB): trimming drops some entries.
    const maxBytes = 20_000;
    const report = await runChild(repo, cache, maxBytes);
    expect(report.definition).toBe('python/pkg/core.py:11');
    const entries = await filesUnder(cache);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.reduce((total, entry) => total + entry.size, 0)).toBeLessThanOrEqual(maxBytes);
  }, 150_000);
});

describe('the code index parse cache, in one process', () => {
  it('sees a changed file, an added file and a deleted file in the next answer, without refresh', async () => {
    const index = new CodeIndex({ root: repo, cache: { directory: cache }, warm: false });
    expect(await index.definitions('LATER_ADDED')).toEqual([]);
    const before = await index.importGraph();

    await appendFile(join(repo, 'python/pkg/core.py'), '\nLATER_ADDED = 1\n');
    expect((await index.definitions('LATER_ADDED')).map((found) => found.path)).toEqual([
      'python/pkg/core.py',
    ]);

    await writeFile(join(repo, 'python/pkg/extra.py'), 'def brand_new():\n    return 1\n');
    expect((await index.definitions('brand_new')).map((found) => found.path)).toEqual([
      'python/pkg/extra.py',
    ]);
    expect((await index.importGraph()).files).toBe(before.files + 1);

    await unlink(join(repo, 'python/pkg/extra.py'));
    expect(await index.definitions('brand_new')).toEqual([]);
    await unlink(join(repo, 'web/client.ts'));
    expect(await index.definitions('fetchOrders')).toEqual([]);
    expect((await index.importGraph()).files).toBe(before.files - 1);
    await index.close();
  });

  it('writes nothing with cache: false', async () => {
    const tools = createCodeTools({ root: repo, cache: false, tools: ['get_definition'] });
    const context = { signal: new AbortController().signal };
    expect(await tools['get_definition']!.execute({ symbol: 'Engine' }, context)).toContain('core.py');
    const index = new CodeIndex({ root: repo, cache: false });
    await index.importGraph();
    await index.close();
    expect(await filesUnder(cache)).toEqual([]);
  });

  it('answers without error when the cache folder cannot be created', async () => {
    const blocker = join(scratch, 'a-file');
    await writeFile(blocker, 'not a folder');
    const index = new CodeIndex({ root: repo, cache: { directory: join(blocker, 'cache') }, warm: false });
    const [definition] = await index.definitions('Engine');
    expect(definition?.path).toBe('python/pkg/core.py');
    expect((await index.symbols('web/client.ts')).symbols.map((symbol) => symbol.name)).toContain(
      'fetchOrders',
    );
    await index.close();
  });

  it('refuses a bad option, naming it', () => {
    expect(() => new CodeIndex({ root: repo, cache: { maxBytes: -1 } })).toThrow(InvalidArgumentError);
    expect(() => new CodeIndex({ root: repo, cache: { maxBytes: -1 } })).toThrow(/cache\.maxBytes/);
    expect(() => createCodeTools({ root: repo, cache: { directory: '' } })).toThrow(/cache\.directory/);
  });
});

describe('ParseCache writes while an answer is under way', () => {
  const parsed = parseScript('held.ts', 'export function held() {}\n', 'typescript', 'TS');
  const key = 'ab'.padEnd(64, '0');

  it('holds them until the answer is given, then writes them', async () => {
    const parses = new ParseCache({ directory: cache, maxBytes: 1_000_000 });
    let written = false;
    let writing: Promise<void> | undefined;
    const answer = await parses.whileAnswering(async () => {
      writing = parses.set(key, parsed);
      void writing.then(() => (written = true));
      // Long enough for an unheld write of a few hundred bytes to land.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(written).toBe(false);
      expect(await filesUnder(cache)).toEqual([]);
      return 'answered';
    });
    expect(answer).toBe('answered');
    await writing;
    expect(written).toBe(true);
    expect((await parses.get(key, 'held.ts'))?.symbols.map((symbol) => symbol.name)).toEqual(['held']);
  });

  it('writes held parses when settled() is awaited during the answer (close() mid-question)', async () => {
    const parses = new ParseCache({ directory: cache, maxBytes: 1_000_000 });
    await parses.whileAnswering(async () => {
      void parses.set(key, parsed);
      await parses.settled();
      expect((await parses.get(key, 'held.ts'))?.path).toBe('held.ts');
    });
  });

  it('writes at once when no answer is under way, and still holds while a second answer is', async () => {
    const parses = new ParseCache({ directory: cache, maxBytes: 1_000_000 });
    await parses.set(key, parsed);
    expect((await parses.get(key, 'held.ts'))?.path).toBe('held.ts');
    const otherKey = 'cd'.padEnd(64, '0');
    let releaseFirst: () => void = () => undefined;
    const first = parses.whileAnswering(() => new Promise<void>((resolve) => (releaseFirst = resolve)));
    let written = false;
    await parses.whileAnswering(async () => {
      void parses.set(otherKey, parsed).then(() => (written = true));
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(written).toBe(false);
    releaseFirst();
    await first;
    await parses.settled();
    expect(written).toBe(true);
  });
});

describe('defaultCacheDirectory', () => {
  it('follows each platform’s user cache folder, and the override', () => {
    const home = '/home/someone';
    expect(defaultCacheDirectory({}, 'linux', home)).toBe('/home/someone/.cache/tool-orchestrator');
    expect(defaultCacheDirectory({ XDG_CACHE_HOME: '/xdg' }, 'linux', home)).toBe('/xdg/tool-orchestrator');
    expect(defaultCacheDirectory({}, 'darwin', home)).toBe('/home/someone/Library/Caches/tool-orchestrator');
    expect(defaultCacheDirectory({ LOCALAPPDATA: 'C:\\Local' }, 'win32', home)).toContain(
      'tool-orchestrator',
    );
    expect(defaultCacheDirectory({ TOOL_ORCHESTRATOR_CACHE_DIR: '/elsewhere' }, 'linux', home)).toBe(
      '/elsewhere',
    );
  });

  it('is a temporary folder in this test suite, never the user’s cache', () => {
    expect(defaultCacheDirectory().startsWith(tmpdir())).toBe(true);
  });
});
