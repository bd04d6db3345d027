import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { mayDeclareGlobals } from '../../../src/explore/index/may-declare-globals.js';

// The default `question` scope parses only the files that mention a name and builds a program
// of those; `whole-repo` parses everything and puts every JS/TS file in the program. They must
// give the same answers.

const fixtures = [
  'commonjs',
  'esm',
  'tsx-library',
  'monorepo',
  'shadowed-member',
  'folder-index',
  'polyglot',
];

async function sourceFiles(root: string, directory = root): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await sourceFiles(root, path)));
    else if (/\.(?:[cm]?[jt]sx?|py|go|rs|java|c|h|cpp|rb)$/.test(entry.name))
      found.push(relative(root, path).split('\\').join('/'));
  }
  return found.sort();
}

/** Every answer of both scopes to the same questions: each symbol's definitions and references, and each imported name asked from its importer. */
async function compareScopes(
  root: string,
  warming: 'background' | 'off' | 'first' = 'background',
): Promise<number> {
  const question = new CodeIndex({ root, ...(warming === 'off' ? { warm: false } : {}) });
  if (warming === 'first') await question.warm();
  const whole = new CodeIndex({ root, scope: 'whole-repo' });
  let asked = 0;
  for (const path of await sourceFiles(root)) {
    const names = new Set<string>();
    try {
      const { symbols } = await whole.symbols(path);
      for (const symbol of symbols) {
        names.add(symbol.name);
        if (symbol.container !== undefined) names.add(`${symbol.container}.${symbol.name}`);
      }
      const { imports } = await whole.imports(path);
      for (const record of imports)
        for (const name of [...record.names, record.local ?? '']) {
          if (name === '' || name === '*' || name === 'default') continue;
          expect(await question.definitions(name, { path }), `${name} from ${path}`).toEqual(
            await whole.definitions(name, { path }),
          );
          asked += 1;
        }
    } catch {
      continue; // not a source file the index parses
    }
    for (const name of names) {
      expect(await question.definitions(name), name).toEqual(await whole.definitions(name));
      expect(await question.references(name, { includeDeclaration: true }), name).toEqual(
        await whole.references(name, { includeDeclaration: true }),
      );
      asked += 1;
    }
  }
  return asked;
}

describe('question scope against the whole-repo program', () => {
  for (const fixture of fixtures) {
    it(`${fixture}: the same definitions and references`, async () => {
      const root = fileURLToPath(new URL(`../../fixtures/code-index/${fixture}`, import.meta.url));
      expect(await compareScopes(root)).toBeGreaterThan(0);
    });
    // Without warming the program holds only what questions reached; warmed first, every file,
    // most of them parsed ahead into the registry rather than by the program.
    it(`${fixture}: the same with warming off, and with the program warmed first`, async () => {
      const root = fileURLToPath(new URL(`../../fixtures/code-index/${fixture}`, import.meta.url));
      expect(await compareScopes(root, 'off')).toBeGreaterThan(0);
      expect(await compareScopes(root, 'first')).toBeGreaterThan(0);
    });
  }
});

describe('question scope reaches beyond the files that mention the name', () => {
  let root: string;
  const files: Record<string, string> = {
    'src/api.ts': 'export interface Api {\n  call(): void;\n}\n',
    // A global the user file reads: it never mentions `call`, yet `api.call()` needs it.
    'src/globals.d.ts': "declare const api: import('./api').Api;\n",
    'src/user.ts': 'export function run(): void {\n  api.call();\n}\n',
    'src/source.ts': 'export function original(): number {\n  return 1;\n}\n',
    // A renamed re-export: its users never mention `original`.
    'src/barrel.ts': "export { original as renamed } from './source';\n",
    'src/consumer.ts': "import { renamed } from './barrel';\n\nexport const value = renamed();\n",
    // A script: its top-level function is a global the other file calls.
    'src/legacy.js': 'function legacyHelper() {\n  return 2;\n}\n',
    'src/caller.ts': 'export const two = legacyHelper();\n',
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'question-scope-'));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds a member used through a global declared in a file that never names it', async () => {
    const result = await new CodeIndex({ root }).references('Api.call');
    expect(
      result.files.map((file) => [file.path, file.references.map((reference) => reference.line)]),
    ).toEqual([['src/user.ts', [2]]]);
  });

  it('follows a renamed re-export to files that use only the new name', async () => {
    const result = await new CodeIndex({ root }).references('original');
    expect(result.files.map((file) => file.path)).toEqual(['src/barrel.ts', 'src/consumer.ts']);
  });

  it('leads a renamed import to a declaration in a file that never mentions the new name', async () => {
    const [definition] = await new CodeIndex({ root }).definitions('renamed', { path: 'src/consumer.ts' });
    expect(definition).toMatchObject({ path: 'src/source.ts', name: 'original', line: 1 });
  });

  it('resolves a call of a function a script declares globally', async () => {
    const result = await new CodeIndex({ root }).references('legacyHelper');
    expect(result.files.map((file) => file.path)).toEqual(['src/caller.ts']);
  });

  it('answers as the whole-repo program does', async () => {
    expect(await compareScopes(root)).toBeGreaterThan(0);
  });
});

describe('mayDeclareGlobals', () => {
  it.each([
    ['function helper() {}\n', true],
    ["const fs = require('fs');\nmodule.exports = {};\n", true],
    ["import { a } from './a';\nexport const b = a;\n", false],
    ['export {};\ndeclare global {\n  interface Window { x: number }\n}\n', true],
    ["export {};\ndeclare module 'other' {\n  interface Options { y: string }\n}\n", true],
    ['/// <reference path="./types.d.ts" />\nexport const c = 1;\n', true],
    ["const lazy = () => import('./a');\n", true],
    ['export const d = 1;\n', false],
  ])('%j → %s', (text, expected) => {
    expect(mayDeclareGlobals(text)).toBe(expected);
  });
});
