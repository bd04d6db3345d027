import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Reads dist/ (built by the global setup when missing): run `npx tsup` first after changing src/.
const dist = fileURLToPath(new URL('../../../dist/', import.meta.url));
const run = promisify(execFile);

interface Probe {
  readonly afterImport: boolean;
  readonly afterListFiles: boolean;
  readonly afterGetSymbols: boolean;
  readonly listed: string;
  readonly symbols: string;
}

/**
 * The probe's body, shared by the ESM and CJS runs. `require.cache` lists every CommonJS module
 * loaded, by `require` or by `import` (typescript is CommonJS), so it tells both runs apart.
 */
const probeBody = `
const typescriptLoaded = () =>
  Object.keys(requireForCache.cache).some((path) => path.includes('/node_modules/typescript/'));
const context = { signal: new AbortController().signal };
const afterImport = typescriptLoaded();
const tools = createCodeTools({ root: process.env.PROBE_ROOT });
const listed = await tools.list_files.execute({}, context);
const afterListFiles = typescriptLoaded();
const symbols = await tools.get_symbols.execute({ path: 'shapes.ts' }, context);
const afterGetSymbols = typescriptLoaded();
console.log(JSON.stringify({ afterImport, afterListFiles, afterGetSymbols, listed, symbols }));
`;

const probes = {
  esm: [
    '--input-type=module',
    '-e',
    `import { createRequire } from 'node:module';
const { createCodeTools } = await import(${JSON.stringify(pathToFileURL(join(dist, 'explore.js')).href)});
const requireForCache = createRequire(${JSON.stringify(join(dist, 'explore.js'))});
${probeBody}`,
  ],
  cjs: [
    '-e',
    `const { createCodeTools } = require(${JSON.stringify(join(dist, 'explore.cjs'))});
const requireForCache = require;
(async () => {${probeBody}})().catch((error) => { console.error(error); process.exitCode = 1; });`,
  ],
} as const;

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lazy-typescript-test-'));
  await writeFile(
    join(root, 'shapes.ts'),
    'export function area(radius: number): number {\n  return radius;\n}\n',
  );
  await writeFile(join(root, 'README.md'), '# shapes\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function probe(format: keyof typeof probes): Promise<Probe> {
  const env: NodeJS.ProcessEnv = { ...process.env, PROBE_ROOT: root };
  delete env.NODE_OPTIONS;
  const { stdout } = await run(process.execPath, probes[format], { env, timeout: 15_000 });
  return JSON.parse(stdout) as Probe;
}

describe('the explore entry loads typescript lazily (dist/)', () => {
  for (const format of ['esm', 'cjs'] as const) {
    it(`${format}: importing it and running list_files loads no typescript; get_symbols does`, async () => {
      const result = await probe(format);
      expect(result.listed.split('\n')).toEqual(expect.arrayContaining(['README.md', 'shapes.ts']));
      expect(result.afterImport).toBe(false);
      expect(result.afterListFiles).toBe(false);
      // The check can see typescript: the code intelligence tools load it on first use.
      expect(result.symbols).toContain('TypeScript parser');
      expect(result.symbols).toContain('area');
      expect(result.afterGetSymbols).toBe(true);
    });
  }
});
