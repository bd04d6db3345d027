import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { Sandbox } from '../../../src/explore/sandbox/sandbox.js';

/** Whether `rg` is on PATH. */
function hasRipgrep(): boolean {
  try {
    return execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

const ripgrep = hasRipgrep();
if (!ripgrep) {
  if (process.env.CI === 'true')
    throw new Error('CI must run the ripgrep prefilter of the code index: rg is not on PATH.');
  console.log('Skipping the ripgrep prefilter tests of the code index: rg is not on PATH.');
}

/** Enough files that the prefilter asks ripgrep which to read (it reads a few hundred files itself). */
const paddingFiles = 260;

const privateKey = [
  '-----BEGIN RSA PRIVATE KEY-----',
  "import hidden from './hidden';",
  '-----END RSA PRIVATE KEY-----',
].join('\n');

/**
 * Shapes where ripgrep's view of the bytes and the index's view of the text differ. The globals
 * matter where a question's files reach a name through a global declared in a file that does not
 * mention the name (`appRegistry.lookupThing()`): that file is in the program only as a global.
 */
const shapes: Record<string, string> = {
  'src/registry-type.ts': 'interface AppRegistry {\n  lookupThing(): number;\n}\n',
  'src/registry-global.ts': 'declare const appRegistry: AppRegistry;\n',
  'src/uses-registry.ts': 'export const looked = appRegistry.lookupThing();\n',
  'src/globals.js': 'function globalHelper() {\n  return 1;\n}\n',
  'src/uses-global.ts': 'export const fromGlobal = globalHelper();\n',
  'src/ambient.ts': 'export {};\ndeclare global {\n  const ambientRegistry: AppRegistry;\n}\n',
  'src/uses-ambient.ts': 'export const viaAmbient = ambientRegistry.lookupThing();\n',
  // Its only module statement is inside a private key block, which the index reads redacted: a script.
  'src/keyed.ts': `declare const keyedRegistry: AppRegistry;\n${privateKey}\n`,
  'src/uses-keyed.ts': 'export const viaKeyed = keyedRegistry.lookupThing();\n',
  // A byte order mark before a script's first declaration.
  'src/bom.ts': '\uFEFFdeclare const bomRegistry: AppRegistry;\n',
  'src/uses-bom.ts': 'export const viaBom = bomRegistry.lookupThing();\n',
  // Old Mac line endings: JavaScript sees the import on a line of its own, ripgrep does not.
  'src/carriage.ts':
    "export const crOnly = 1;\rimport { pad3 } from './pad/p3';\rexport const three = pad3;\r",
  'src/uses-carriage.ts': "import { crOnly } from './carriage';\nexport const again = crOnly;\n",
  'src/accents.ts': 'export const naïveValue = 1;\n',
  'src/uses-accents.ts': "import { naïveValue } from './accents';\nexport const accent = naïveValue + 1;\n",
  // A renamed import: its uses are found under a name no question asked ripgrep about.
  'src/renamed.ts':
    "import { pad7 as seventh } from './pad/p7';\nexport const renamed = seventh + seventh;\n",
  'scripts/tool.py': 'def python_thing():\n    return 1\n\n\npython_thing()\n',
  'tsconfig.json': JSON.stringify({ compilerOptions: { allowJs: true, strict: true } }),
};

const names = [
  'lookupThing',
  'AppRegistry',
  'globalHelper',
  'crOnly',
  'naïveValue',
  'pad3',
  'pad7',
  'python_thing',
  'nowhere',
];

/** The real sandbox, noting the source files it reads. */
class CountingSandbox extends Sandbox {
  readonly read = new Set<string>();

  override readText(path: string, options?: { readonly maxBytes?: number }): ReturnType<Sandbox['readText']> {
    if (!path.endsWith('.json')) this.read.add(path);
    return super.readText(path, options);
  }

  override readTextSync(
    path: string,
    options?: { readonly maxBytes?: number },
  ): ReturnType<Sandbox['readTextSync']> {
    if (!path.endsWith('.json')) this.read.add(path);
    return super.readTextSync(path, options);
  }
}

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ripgrep-prefilter-'));
  const files: Record<string, string> = { ...shapes };
  for (let index = 0; index < paddingFiles; index += 1) {
    files[`src/pad/p${index}.ts`] = `export const pad${index} = ${index};\n`;
  }
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(!ripgrep)('the code index with ripgrep naming the files to read first', () => {
  it('reads only the candidates before its first answer, the rest as background warming', async () => {
    const sandbox = new CountingSandbox({ root });
    const index = new CodeIndex({ sandbox, cache: false, ripgrep: true });
    expect((await index.definitions('pad3')).map((definition) => definition.path)).toEqual(['src/pad/p3.ts']);
    expect(sandbox.read.size).toBeLessThan(40);
    await index.warm();
    expect(sandbox.read.size).toBe(paddingFiles + Object.keys(shapes).length - 1);
    await index.close();
  });

  it('gives the same definitions and references as reading every file, name after name and in a fresh index per name', async () => {
    const node = new CodeIndex({ root, cache: false, warm: false, ripgrep: false });
    const shared = new CodeIndex({ root, cache: false, warm: false, ripgrep: true });
    for (const name of names) {
      const fresh = new CodeIndex({ root, cache: false, warm: false, ripgrep: true });
      const expectedReferences = await node.references(name, { includeDeclaration: true });
      const expectedDefinitions = await node.definitions(name);
      expect(await fresh.references(name, { includeDeclaration: true }), name).toEqual(expectedReferences);
      expect(await fresh.definitions(name), name).toEqual(expectedDefinitions);
      expect(await shared.definitions(name), name).toEqual(expectedDefinitions);
      expect(await shared.references(name, { includeDeclaration: true }), name).toEqual(expectedReferences);
      await fresh.close();
    }
    // The shapes are found at all: the comparison is not between two empty answers.
    expect((await node.definitions('globalHelper')).map((definition) => definition.path)).toEqual([
      'src/globals.js',
    ]);
    const throughGlobals = (await node.references('lookupThing')).files.map((file) => file.path);
    expect(throughGlobals).toEqual(
      expect.arrayContaining([
        'src/uses-registry.ts',
        'src/uses-ambient.ts',
        'src/uses-keyed.ts',
        'src/uses-bom.ts',
      ]),
    );
    expect((await node.references('pad7')).total).toBe(2);
    expect((await node.definitions('naïveValue')).map((definition) => definition.path)).toEqual([
      'src/accents.ts',
    ]);
    await Promise.all([node.close(), shared.close()]);
  }, 120_000);
});
