import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { entries, esmOnlyEntries } from '../../tsup.config.js';

const root = new URL('../../', import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  exports: Record<
    string,
    string | { import: { types: string; default: string }; require: { types: string; default: string } }
  >;
};
const subpathOf = (entry: string): string => (entry === 'index' ? '.' : `./${entry}`);
const esmOnly = (entry: string): boolean => (esmOnlyEntries as readonly string[]).includes(entry);

describe('package.json#exports', () => {
  it('has exactly one subpath per build entry, pointing at the files tsup writes', () => {
    const subpaths = Object.keys(packageJson.exports).filter((key) => key !== './package.json');
    expect(subpaths.sort()).toEqual(Object.keys(entries).map(subpathOf).sort());
    for (const entry of Object.keys(entries)) {
      const target = packageJson.exports[subpathOf(entry)];
      expect(target).toEqual(
        esmOnly(entry)
          ? { types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` }
          : {
              import: { types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` },
              require: { types: `./dist/${entry}.d.cts`, default: `./dist/${entry}.cjs` },
            },
      );
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
