import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';

// Small packages written for each JS/TS shape the index must get right (test/fixtures/code-index/).
const fixture = (name: string): CodeIndex =>
  new CodeIndex({ root: fileURLToPath(new URL(`../../fixtures/code-index/${name}`, import.meta.url)) });

async function definitionsOf(index: CodeIndex, name: string, path?: string): Promise<string[]> {
  const found = await index.definitions(name, path === undefined ? {} : { path });
  return found.map((definition) => `${definition.path}:${definition.line} ${definition.kind}`);
}

async function referencesOf(index: CodeIndex, name: string, path?: string): Promise<string[]> {
  const result = await index.references(name, path === undefined ? {} : { path });
  return result.files.flatMap((file) => file.references.map((reference) => `${file.path}:${reference.line}`));
}

async function importsOf(index: CodeIndex, path: string): Promise<string[]> {
  const { imports } = await index.imports(path);
  return imports.map((record) => `${record.specifier} -> ${record.resolved ?? '(package)'}`);
}

describe('CommonJS: destructured requires are references', () => {
  const index = fixture('commonjs');

  it('finds every use of a function exported through module.exports = { ... }', async () => {
    const expected = [
      'app.js:3', // const { getFirstIndex, clamp } = require('./lib') (through the barrel)
      'app.js:8',
      'lib/consumer.js:3', // const { getFirstIndex, Cache } = require('./utils')
      'lib/consumer.js:8',
      'lib/consumer.js:13', // utils.getFirstIndex(list)
      'lib/index.js:7', // getFirstIndex: utils.getFirstIndex
      'lib/jsdoc-user.js:5', // const pick = utils.getFirstIndex
      'lib/renamed.js:3', // const { getFirstIndex: first } = require('./utils')
      'lib/utils.js:19', // module.exports = { getFirstIndex, Cache }
    ];
    expect(await referencesOf(index, 'getFirstIndex', 'lib/utils.js')).toEqual(expected);
    // Not the comment, the string or the JSDoc @property that mention the name (app.js:6-7, utils.js:5).
    expect(await referencesOf(index, 'getFirstIndex')).toEqual(expected);
  });

  it('finds uses of exports.x = function, module.exports.x = x and module.exports = Class', async () => {
    expect(await referencesOf(index, 'clamp')).toEqual([
      'app.js:3',
      'app.js:8',
      'lib/consumer.js:13',
      'lib/index.js:4',
      'lib/index.js:9',
    ]);
    expect(await referencesOf(index, 'double')).toEqual(['lib/consumer.js:13', 'lib/math.js:11']);
    expect(await referencesOf(index, 'Parser')).toEqual(['app.js:4', 'app.js:8', 'lib/parser.js:9']);
  });
});

describe('CommonJS: JSDoc types and expando properties', () => {
  const index = fixture('commonjs');

  it('counts JSDoc type references, and an expando assignment declares nothing new', async () => {
    expect(await referencesOf(index, 'Cache', 'lib/utils.js')).toEqual([
      'lib/consumer.js:3',
      'lib/consumer.js:12',
      'lib/index.js:8',
      'lib/jsdoc-user.js:3',
      'lib/jsdoc-user.js:8', // @param {Cache} cache
      'lib/utils.js:19',
    ]);
    // `readFirst.description = ...` (line 15) is a use of the function, not a second declaration.
    expect(await definitionsOf(index, 'readFirst', 'lib/jsdoc-user.js')).toEqual([
      'lib/jsdoc-user.js:11 function',
    ]);
    expect(await referencesOf(index, 'readFirst')).toEqual(['lib/jsdoc-user.js:15', 'lib/jsdoc-user.js:17']);
  });
});

describe('CommonJS: a definition asked from a use site reaches the declaration', () => {
  const index = fixture('commonjs');

  it('follows destructured requires, barrels and export objects to the function', async () => {
    expect(await definitionsOf(index, 'getFirstIndex', 'app.js')).toEqual(['lib/utils.js:8 function']);
    expect(await definitionsOf(index, 'getFirstIndex', 'lib/consumer.js')).toEqual([
      'lib/utils.js:8 function',
    ]);
    expect(await definitionsOf(index, 'getFirstIndex', 'lib/utils.js')).toEqual(['lib/utils.js:8 function']);
    expect(await definitionsOf(index, 'first', 'lib/renamed.js')).toEqual(['lib/utils.js:8 function']);
  });

  it('follows const X = require(...) and export-object entries to the class, never the require line', async () => {
    expect(await definitionsOf(index, 'Parser', 'app.js')).toEqual(['lib/parser.js:3 class']);
    expect(await definitionsOf(index, 'Cache', 'lib/index.js')).toEqual(['lib/utils.js:12 class']);
    expect(await definitionsOf(index, 'clamp', 'app.js')).toEqual(['lib/math.js:3 function']);
    expect(await definitionsOf(index, 'double', 'lib/consumer.js')).toEqual(['lib/math.js:7 function']);
  });
});

describe('Monorepo: tsconfig paths and baseUrl, workspace packages', () => {
  const index = fixture('monorepo');

  it("resolves paths, workspace package names and subpaths, and baseUrl to the sibling package's source", async () => {
    expect(await importsOf(index, 'packages/app/src/main.ts')).toEqual([
      '@acme/core -> packages/core/src/index.ts', // workspace package, main: dist/index.js -> src
      '@acme/core/format -> packages/core/src/format.ts', // exports subpath
      '@acme/shared -> packages/shared/src/index.ts', // tsconfig paths (inherited through extends)
      '~utils/strings -> packages/shared/src/utils/strings.ts', // paths with *
      'react -> (package)',
    ]);
    expect(await importsOf(index, 'packages/legacy/src/main.ts')).toEqual([
      'lib/math -> packages/legacy/src/lib/math.ts', // baseUrl
      '@acme/core -> packages/core/src/index.ts',
    ]);
  });

  it('finds definitions and references across packages', async () => {
    expect(await definitionsOf(index, 'createStore', 'packages/app/src/main.ts')).toEqual([
      'packages/core/src/store.ts:8 function',
    ]);
    expect(await definitionsOf(index, 'formatCents', 'packages/app/src/main.ts')).toEqual([
      'packages/core/src/format.ts:1 function',
    ]);
    expect(await referencesOf(index, 'createStore')).toEqual([
      'packages/app/src/main.ts:1',
      'packages/app/src/main.ts:7',
      'packages/legacy/src/main.ts:2',
      'packages/legacy/src/main.ts:4',
    ]);
    expect(await referencesOf(index, 'VERSION')).toEqual([
      'packages/app/src/main.ts:3',
      'packages/app/src/main.ts:9',
      'packages/core/src/store.ts:1',
      'packages/core/src/store.ts:18',
    ]);
  });

  it('draws import-graph edges between packages', async () => {
    const graph = await index.importGraph({ path: 'packages/core/src/format.ts' });
    expect(graph.importedBy.map((importer) => importer.path)).toEqual([
      'packages/app/src/main.ts',
      'packages/core/src/index.ts',
    ]);
  });
});

describe('No false references', () => {
  const index = fixture('tsx-library');

  it('leaves out same-named properties, a same-named local in another file, and lists a line once', async () => {
    // Not `hsl.format`/`rgb.format` (Swatch.tsx:10), not the other `format:` properties
    // (spaces.ts:5-6), not Palette.tsx's local formatColorToCss, not the comment (Swatch.tsx:9);
    // Swatch.tsx:11 uses it twice and is listed once.
    expect(await referencesOf(index, 'formatColorToCss', 'src/color.ts')).toEqual([
      'src/components/Swatch.tsx:1',
      'src/components/Swatch.tsx:11',
      'src/spaces.ts:1',
      'src/spaces.ts:4',
    ]);
  });

  it('follows a default export imported in JSX', async () => {
    expect(await definitionsOf(index, 'Swatch', 'src/components/Palette.tsx')).toEqual([
      'src/components/Swatch.tsx:8 function',
    ]);
    expect(await referencesOf(index, 'Swatch', 'src/components/Swatch.tsx')).toEqual([
      'src/components/Palette.tsx:1',
      'src/components/Palette.tsx:6',
      'src/components/Swatch.tsx:14',
      'src/index.ts:1',
    ]);
  });
});

describe('Overloads', () => {
  const index = fixture('tsx-library');

  it('are one function declared at its first signature; the other signatures are declarations, not uses', async () => {
    expect(await definitionsOf(index, 'toPixels')).toEqual(['src/overloads.ts:1 function']);
    expect((await index.symbols('src/overloads.ts')).symbols.map((symbol) => symbol.name)).toEqual([
      'toPixels',
      'width',
    ]);
    expect(await referencesOf(index, 'toPixels')).toEqual(['src/overloads.ts:7']);
  });
});

describe('A use-site name shadowed by a class member', () => {
  const index = fixture('shadowed-member');

  it('resolves the bare call to the imported function, not the method of the same name', async () => {
    expect(await definitionsOf(index, 'reportObserved', 'src/store.ts')).toEqual([
      'src/observe.ts:1 function',
    ]);
    expect(await referencesOf(index, 'reportObserved', 'src/observe.ts')).toEqual([
      'src/store.ts:1',
      'src/store.ts:5',
    ]);
    expect(await referencesOf(index, 'Store.reportObserved')).toEqual(['src/store.ts:10']);
  });
});

describe('Import resolution gaps', () => {
  const index = fixture('folder-index');

  it("resolves './' and './widgets/' to the folder's index", async () => {
    expect(await importsOf(index, 'src/widgets/button.ts')).toEqual(['./ -> src/widgets/index.ts']);
    expect(await importsOf(index, 'src/main.ts')).toEqual([
      './widgets/button -> src/widgets/button.ts',
      './widgets/ -> src/widgets/index.ts',
    ]);
  });

  it("maps a .d.ts file's './index.js' to index.d.ts beside an index.js", async () => {
    expect(await importsOf(index, 'types/extra.d.ts')).toEqual(['./index.js -> types/index.d.ts']);
    expect(await definitionsOf(index, 'parse', 'types/extra.d.ts')).toEqual(['types/index.d.ts:4 function']);
  });
});

describe('ESM .mjs package', () => {
  const index = fixture('esm');

  it('finds the uses of a renamed import under its new name', async () => {
    expect(await referencesOf(index, 'createQueue', 'lib/queue.mjs')).toEqual([
      'lib/alias-user.mjs:1',
      'lib/alias-user.mjs:3', // makeQueue()
      'lib/helpers.mjs:1',
      'lib/helpers.mjs:3',
      'lib/index.mjs:1',
    ]);
  });

  it('follows default-as-named re-exports and namespace re-exports', async () => {
    expect(await definitionsOf(index, 'Queue', 'main.mjs')).toEqual(['lib/queue.mjs:1 class']);
    expect(await definitionsOf(index, 'drain', 'main.mjs')).toEqual(['lib/helpers.mjs:3 function']);
    expect(await referencesOf(index, 'Queue', 'lib/queue.mjs')).toEqual([
      'lib/helpers.mjs:1',
      'lib/helpers.mjs:4',
      'lib/index.mjs:1',
      'lib/queue.mjs:10',
      'main.mjs:1',
      'main.mjs:3',
    ]);
  });
});

describe('JSON modules', () => {
  const root = fileURLToPath(new URL('../../fixtures/code-index/commonjs-reexport', import.meta.url));
  const index = new CodeIndex({ root });
  const importers = ['lib/linter.js', 'lib/rules/no-empty.js', 'lib/esm-user.mjs'];

  /** Where TypeScript itself, with `resolveJsonModule`, resolves each `.json` specifier of a file. */
  function typescriptResolves(path: string): string[] {
    const fileName = join(root, path);
    const options: ts.CompilerOptions = {
      allowJs: true,
      resolveJsonModule: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
    };
    const text = ts.sys.readFile(fileName) ?? '';
    return ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName: specifier }) => {
      if (!specifier.endsWith('.json')) return [];
      const resolved = ts.resolveModuleName(specifier, fileName, options, ts.sys).resolvedModule;
      return resolved === undefined
        ? []
        : [`${specifier} -> ${resolved.resolvedFileName.slice(root.length + 1)}`];
    });
  }

  it('resolves require and import of a .json file to the file, as TypeScript does', async () => {
    let checked = 0;
    for (const path of importers) {
      const expected = typescriptResolves(path);
      checked += expected.length;
      const ours = (await importsOf(index, path)).filter((edge) => edge.includes('.json'));
      expect(ours, path).toEqual(expected);
    }
    expect(checked).toBe(3);
  });

  it('draws the import edges to the .json file in the import graph', async () => {
    const graph = await index.importGraph({ path: 'lib/linter.js' });
    expect(graph.imports.map((record) => record.resolved)).toEqual([
      'lib/source-code/index.js',
      'lib/settings.json',
    ]);
    const summary = await index.importGraph();
    expect(summary.mostImported).toContainEqual({ path: 'lib/settings.json', importedBy: 2 });
  });
});
