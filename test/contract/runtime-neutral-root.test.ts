import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dist = new URL('../../dist/', import.meta.url);
/** Static `import ... from` / `export ... from` and `require()`: loaded with the file. */
const eagerPattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/g;
/** `import()`: loaded on first use of the code around it. */
const lazyPattern = /import\(\s*['"]([^'"]+)['"]\s*\)/g;

interface Graph {
  /** Every package or built-in module loaded when the entry is imported. */
  readonly loaded: Set<string>;
  /** The local chunks the entry's code can import later, on first use. */
  readonly lazyChunks: Set<string>;
}

/** What importing `entry` loads, following its local chunks; `import()` targets are listed, not followed. */
function graphOf(entry: string): Graph {
  const loaded = new Set<string>();
  const lazyChunks = new Set<string>();
  const visited = new Set<string>();
  const visit = (file: string): void => {
    if (visited.has(file)) return;
    visited.add(file);
    const code = readFileSync(new URL(file, dist), 'utf8');
    for (const match of code.matchAll(eagerPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (specifier.startsWith('./')) visit(specifier.slice(2));
      else loaded.add(specifier);
    }
    for (const [, specifier] of code.matchAll(lazyPattern)) {
      if (specifier!.startsWith('./')) lazyChunks.add(specifier!.slice(2));
      else loaded.add(specifier!); // import() of a package: counted as loaded, to be safe.
    }
  };
  visit(entry);
  return { loaded, lazyChunks };
}

const isNodeOnly = (specifier: string): boolean =>
  specifier.startsWith('node:') ||
  ['fs', 'fs/promises', 'path', 'child_process', 'os', 'worker_threads', 'crypto', 'typescript'].includes(
    specifier,
  );
const isProviderSdk = (specifier: string): boolean =>
  specifier === 'openai' || specifier.startsWith('openai/');

describe('the root entry is runtime-neutral', () => {
  for (const file of ['index.js', 'index.cjs', 'testing.js']) {
    it(`${file} imports nothing Node-only and no provider SDK`, () => {
      const { loaded } = graphOf(file);
      expect([...loaded].filter(isNodeOnly)).toEqual([]);
      expect([...loaded].filter(isProviderSdk)).toEqual([]);
    });
  }

  for (const file of ['index.js', 'index.cjs']) {
    it(`${file} loads Node's file system only on first use of FileCheckpointStore`, () => {
      const { lazyChunks } = graphOf(file);
      // The only code the root entry loads later is FileCheckpointStore's file operations.
      expect([...lazyChunks].map((chunk) => chunk.replace(/-[A-Z0-9]{8}\.c?js$/, ''))).toEqual([
        'checkpoint-files',
      ]);
      const lazyLoaded = new Set([...lazyChunks].flatMap((chunk) => [...graphOf(chunk).loaded]));
      // zlib for crc32, the checksum of each line of the checkpoint log.
      expect([...lazyLoaded].sort()).toEqual(['fs/promises', 'path', 'zlib']);
    });
  }

  it('does import the runtime dependencies it declares (the scan works)', () => {
    expect([...graphOf('index.js').loaded]).toEqual(
      expect.arrayContaining(['eventemitter3', '@cfworker/json-schema']),
    );
    expect([...graphOf('explore.js').loaded]).toEqual(expect.arrayContaining(['fs/promises']));
  });
});
