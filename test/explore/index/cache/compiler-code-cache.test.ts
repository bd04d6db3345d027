import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScriptInChild } from '../../../support/run-in-child.js';

const moduleUrl = pathToFileURL(
  fileURLToPath(new URL('../../../../src/explore/index/cache/compiler-code-cache.ts', import.meta.url)),
).href;

/** What a child reports about the compiler it loaded: the same whether it came from the cache or from `require`. */
interface Loaded {
  readonly preload: string | null;
  readonly sameInstance: boolean;
  readonly version: string;
  readonly exportNames: number;
  readonly transpiled: string;
  readonly diagnostics: string[];
}

// A program through the checker and an emit: both halves of the compiler run from the code V8 cached.
const childScript = (preload: boolean): string => `
import { createRequire } from 'node:module';
import { preloadTypeScript } from ${JSON.stringify(moduleUrl)};
// Resolved from the package, as the module under test resolves it.
const require = createRequire(${JSON.stringify(moduleUrl)});
const preload = ${preload ? 'await preloadTypeScript(process.env.CACHE_DIRECTORY)' : 'null'};
const path = require.resolve('typescript');
const cached = require.cache[path];
const ts = require('typescript');
const host = ts.createCompilerHost({ strict: true });
const readFile = host.readFile;
host.readFile = (name) => name === '/a.ts' ? 'export const n: number = "text";\\nexport class A { m(): string { return 1 + ""; } }' : readFile(name);
host.fileExists = ((exists) => (name) => name === '/a.ts' || exists(name))(host.fileExists);
const program = ts.createProgram(['/a.ts'], { strict: true, noEmit: true }, host);
console.log(JSON.stringify({
  preload,
  sameInstance: cached === undefined ? false : cached.exports === ts && cached.loaded === true,
  version: ts.version,
  exportNames: Object.keys(ts).length,
  transpiled: ts.transpileModule('enum E { A = 1 } export const x = <const>[E.A];', { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText,
  diagnostics: ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')),
}));
`;

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'compiler-code-cache-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function load(preload: boolean, script = childScript(preload)): Promise<Loaded> {
  const outcome = await runScriptInChild(script, { deadlineMs: 60_000, env: { CACHE_DIRECTORY: directory } });
  expect(outcome.stderr).toBe('');
  expect(outcome.exitCode).toBe(0);
  return JSON.parse(outcome.stdout) as Loaded;
}

async function cacheFiles(): Promise<string[]> {
  return (await readdir(join(directory, 'compiler-v1')).catch(() => [])).filter((name) =>
    name.endsWith('.bin'),
  );
}

describe('preloadTypeScript', () => {
  it('compiles from source first, from its code cache after, and gives what require gives', async () => {
    const reference = await load(false);
    expect(reference.diagnostics).toHaveLength(1);
    expect(reference.diagnostics[0]).toContain("Type 'string' is not assignable to type 'number'");

    const first = await load(true);
    expect(first.preload).toBe('compiled');
    expect(await cacheFiles()).toHaveLength(1);
    const second = await load(true);
    expect(second.preload).toBe('from-cache');

    for (const loaded of [first, second]) {
      expect(loaded.sameInstance).toBe(true);
      expect({ ...loaded, preload: null, sameInstance: false }).toEqual(reference);
    }
  }, 60_000);

  it('does not trust a damaged cache file: compiles from source and writes it again', async () => {
    await load(true);
    const [name] = await cacheFiles();
    const location = join(directory, 'compiler-v1', name ?? '');
    const bytes = await readFile(location);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
    await writeFile(location, bytes);

    const damaged = await load(true);
    expect(damaged.preload).toBe('compiled');
    expect(damaged.diagnostics).toHaveLength(1);
    expect(await readFile(location)).not.toEqual(bytes);
    expect((await load(true)).preload).toBe('from-cache');
  }, 60_000);

  it('does nothing when TypeScript is already loaded', async () => {
    const loaded = await load(
      true,
      childScript(true).replace('const preload = await', "require('typescript');\nconst preload = await"),
    );
    expect(loaded.preload).toBe('present');
    expect(await cacheFiles()).toEqual([]);
  });
});
