import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { entries, esmOnlyEntries } from '../../tsup.config.js';

const root = new URL('../../', import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  exports: Record<string, unknown>;
};
const subpathOf = (entry: string): string => (entry === 'index' ? '.' : `./${entry}`);
const esmOnly = (entry: string): boolean => (esmOnlyEntries as readonly string[]).includes(entry);
/** The `import` and `require` targets of a build of `entry`, with its types. */
const bothFormats = (entry: string, types = entry) => ({
  import: { types: `./dist/${types}.d.ts`, default: `./dist/${entry}.js` },
  require: { types: `./dist/${types}.d.cts`, default: `./dist/${entry}.cjs` },
});

describe('package.json#exports', () => {
  it('has exactly one subpath per build entry, pointing at the files tsup writes', () => {
    const subpaths = Object.keys(packageJson.exports).filter((key) => key !== './package.json');
    expect(subpaths.sort()).toEqual(Object.keys(entries).map(subpathOf).sort());
    for (const entry of Object.keys(entries)) {
      // The root's two builds: see the next test.
      if (entry === 'index') continue;
      const target = packageJson.exports[subpathOf(entry)];
      expect(target, entry).toEqual(
        esmOnly(entry)
          ? { types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` }
          : bothFormats(entry),
      );
    }
  });

  it('sends Node (and Bun and Deno) to the root build with the file store, every other runtime to the neutral one', () => {
    const target = packageJson.exports['.'];
    expect(target).toEqual({ node: bothFormats('index'), ...bothFormats('neutral', 'index') });
    // Condition order decides: `node` must come first.
    expect(Object.keys(target as object)).toEqual(['node', 'import', 'require']);
  });

  it('gives both root builds the same exports, in both formats', async () => {
    const require = createRequire(new URL('package.json', root));
    const names = async (file: string): Promise<string[]> =>
      Object.keys(
        (file.endsWith('.cjs')
          ? require(new URL(file, root).pathname)
          : await import(new URL(file, root).href)) as object,
      ).sort();
    const node = await names('dist/index.js');
    expect(node).toEqual(expect.arrayContaining(['FileCheckpointStore', 'ToolOrchestrator']));
    for (const file of ['dist/index.cjs', 'dist/neutral.js', 'dist/neutral.cjs']) {
      expect(await names(file), file).toEqual(node);
    }
  });

  it('points every export at a file that the build produced', () => {
    for (const entry of Object.keys(entries)) {
      for (const extension of esmOnly(entry) ? ['.js', '.d.ts'] : ['.js', '.cjs', '.d.ts', '.d.cts']) {
        expect(existsSync(new URL(`dist/${entry}${extension}`, root)), `dist/${entry}${extension}`).toBe(
          true,
        );
      }
    }
    for (const file of ['dist/neutral.js', 'dist/neutral.cjs']) {
      expect(existsSync(new URL(file, root)), file).toBe(true);
    }
  });

  it('loads every subpath through both require and import (an ESM-only one through require(esm))', async () => {
    const require = createRequire(new URL('package.json', root));
    for (const entry of Object.keys(entries)) {
      const file = esmOnly(entry) ? `dist/${entry}.js` : `dist/${entry}.cjs`;
      const viaRequire = require(new URL(file, root).pathname) as object;
      const viaImport = (await import(new URL(`dist/${entry}.js`, root).href)) as object;
      expect(Object.keys(viaRequire).sort()).toEqual(Object.keys(viaImport).sort());
    }
  });
});
