import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Root from '../../src/index.js';
import { createBundleProject } from '../support/bundle-app.js';
import type { BundleProject, BundleTarget } from '../support/bundle-app.js';

// Reads dist/: run `npm run build` after changing src/.
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
  [
    'fs',
    'fs/promises',
    'path',
    'zlib',
    'child_process',
    'os',
    'worker_threads',
    'crypto',
    'typescript',
  ].includes(specifier);
const isProviderSdk = (specifier: string): boolean =>
  specifier === 'openai' || specifier.startsWith('openai/');

const apps = {
  'the names most apps import': `
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
console.log(ToolOrchestrator, defineTool);`,
  'the whole root': `
import * as all from 'tool-orchestrator';
console.log(all);`,
};
const targets: readonly BundleTarget[] = ['browser', 'neutral', 'worker'];

describe('the root entry is runtime-neutral', () => {
  let project: BundleProject;
  beforeAll(async () => {
    project = await createBundleProject();
  });
  afterAll(async () => {
    await project.remove();
  });

  for (const target of targets) {
    for (const [label, source] of Object.entries(apps)) {
      it(`bundles for ${target} with esbuild: ${label}, with no Node built-in and nothing unresolved`, async () => {
        const { errors, inputs, externals } = await project.bundle(source, target);
        expect(errors).toEqual([]);
        expect(externals).toEqual([]);
        // Through package.json#exports, to the build without the file store.
        expect(inputs.some((input) => input.endsWith('dist/neutral.js'))).toBe(true);
        expect(inputs.filter((input) => /dist\/(index|checkpoint-files-[^/]*)\.js$/.test(input))).toEqual([]);
      });
    }
  }

  it('fails to bundle what imports a Node built-in (the check works)', async () => {
    const { errors } = await project.bundle(
      `import { Sandbox } from 'tool-orchestrator/explore'; console.log(Sandbox);`,
      'browser',
    );
    expect(errors.join('\n')).toMatch(/Could not resolve "(node:)?(fs|path|child_process)/);
  });

  for (const file of ['neutral.js', 'neutral.cjs', 'testing.js']) {
    it(`${file} imports nothing Node-only and no provider SDK, now or later`, () => {
      const { loaded, lazyChunks } = graphOf(file);
      expect([...loaded].filter(isNodeOnly)).toEqual([]);
      expect([...loaded].filter(isProviderSdk)).toEqual([]);
      expect([...lazyChunks]).toEqual([]);
    });
  }

  for (const file of ['index.js', 'index.cjs']) {
    it(`the Node build ${file} loads Node's file system only on first use of FileCheckpointStore`, () => {
      const { loaded, lazyChunks } = graphOf(file);
      expect([...loaded].filter(isNodeOnly)).toEqual([]);
      expect([...loaded].filter(isProviderSdk)).toEqual([]);
      // The only code the Node build loads later is FileCheckpointStore's file operations.
      expect([...lazyChunks].map((chunk) => chunk.replace(/-[A-Z0-9]{8}\.c?js$/, ''))).toEqual([
        'checkpoint-files',
      ]);
      const lazyLoaded = new Set([...lazyChunks].flatMap((chunk) => [...graphOf(chunk).loaded]));
      // zlib for crc32, the checksum of each line of the checkpoint log.
      expect([...lazyLoaded].sort()).toEqual(['fs/promises', 'path', 'zlib']);
    });
  }

  it('does import the runtime dependencies it declares (the scan works)', () => {
    expect([...graphOf('neutral.js').loaded]).toEqual(
      expect.arrayContaining(['eventemitter3', '@cfworker/json-schema']),
    );
    expect([...graphOf('explore.js').loaded]).toEqual(expect.arrayContaining(['fs/promises']));
  });
});

describe('FileCheckpointStore in the build for browsers, edge and worker runtimes', () => {
  it('throws UnsupportedRuntimeError, saying what to use instead', async () => {
    const neutral = (await import(new URL('neutral.js', dist).href)) as typeof Root;
    let thrown: unknown;
    try {
      new neutral.FileCheckpointStore({ dir: './checkpoints' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(neutral.UnsupportedRuntimeError);
    expect(thrown).toMatchObject({ code: 'unsupported_runtime', feature: 'FileCheckpointStore' });
    expect((thrown as Error).message).toMatch(/MemoryCheckpointStore/);
  });
});
