import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { Sandbox } from '../../../src/explore/sandbox/sandbox.js';

// JS/TS, Python, Go, Rust, Java and C files: the compiler, tree-sitter grammars and patterns.
const root = fileURLToPath(new URL('../../fixtures/code-index/polyglot', import.meta.url));

/** The real sandbox, counting how often each file is read. */
class CountingSandbox extends Sandbox {
  readonly reads = new Map<string, number>();

  override readText(path: string, options?: { readonly maxBytes?: number }): ReturnType<Sandbox['readText']> {
    this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
    return super.readText(path, options);
  }

  override readTextSync(
    path: string,
    options?: { readonly maxBytes?: number },
  ): ReturnType<Sandbox['readTextSync']> {
    this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
    return super.readTextSync(path, options);
  }
}

describe('ProjectFiles: the files a CodeIndex parses', () => {
  it('parses each file once when two first queries of a fresh index run at the same time', async () => {
    const sandbox = new CountingSandbox({ root });
    // No cache: a snapshot another test saved for this fixture would let it parse without reading.
    const index = new CodeIndex({ sandbox, cache: false, warm: false });
    const [graph, map] = await Promise.all([
      index.importGraph(),
      index.repoMap(),
      index.symbols('web/client.ts'),
    ]);
    expect(graph.files).toBeGreaterThan(5);
    expect(map.text).not.toBe('');
    const sources = [...sandbox.reads.keys()].filter((path) => !path.endsWith('.json'));
    expect(sources.length).toBeGreaterThan(5);
    for (const path of sources) expect(sandbox.reads.get(path), path).toBe(1);
  });

  it('reads nothing again for later queries, and only a changed file once it changed', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'project-files-'));
    try {
      await cp(root, copy, { recursive: true });
      const sandbox = new CountingSandbox({ root: copy });
      // No cache: a snapshot another test saved for this fixture would let it parse without reading.
      const index = new CodeIndex({ sandbox, cache: false, warm: false });
      await index.importGraph();
      const first = new Map(sandbox.reads);
      await Promise.all([index.importGraph(), index.repoMap()]);
      expect(sandbox.reads).toEqual(first);
      // A later mtime and a new size: a new version.
      await appendFile(join(copy, 'web/client.ts'), '\nexport const added = 1;\n');
      const [graph] = await Promise.all([index.importGraph(), index.importGraph()]);
      expect(graph.files).toBeGreaterThan(5);
      for (const [path, count] of sandbox.reads) {
        expect(count, path).toBe((first.get(path) ?? 0) + (path === 'web/client.ts' ? 1 : 0));
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('reads each file once on a cold question: the prefilter hands its texts to the parser', async () => {
    const caches: readonly (false | { readonly directory: string })[] = [
      false,
      { directory: await mkdtemp(join(tmpdir(), 'project-files-cache-')) },
    ];
    for (const cache of caches) {
      const sandbox = new CountingSandbox({ root });
      const index = new CodeIndex({ sandbox, cache, warm: false });
      expect((await index.definitions('Engine')).map((found) => found.path)).toEqual(['python/pkg/core.py']);
      expect(await index.definitions('fetchOrders')).not.toEqual([]);
      const sources = [...sandbox.reads.keys()].filter((path) => !path.endsWith('.json'));
      expect(sources.length).toBeGreaterThan(5);
      for (const path of sources)
        expect(sandbox.reads.get(path), `${path} with cache ${String(cache)}`).toBe(1);
      if (cache !== false) await rm(cache.directory, { recursive: true, force: true });
    }
  });
});
