import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

/** A repo without JS/TS files: every code intelligence tool, then whether the compiler was loaded. */
const pythonProbeBody = `
const typescriptLoaded = () =>
  Object.keys(requireForCache.cache).some((path) => path.includes('/node_modules/typescript/'));
const context = { signal: new AbortController().signal };
const tools = createCodeTools({ root: process.env.PROBE_ROOT });
const outputs = [
  await tools.get_symbols.execute({ path: 'pkg/core.py' }, context),
  await tools.get_structure.execute({ path: 'pkg/core.py' }, context),
  await tools.get_imports.execute({ path: 'app.py' }, context),
  await tools.get_definition.execute({ symbol: 'area' }, context),
  await tools.get_references.execute({ symbol: 'area' }, context),
  await tools.import_graph.execute({}, context),
  await tools.repo_map.execute({}, context),
].map((output) => (typeof output === 'string' ? output : JSON.stringify(output)));
console.log(JSON.stringify({ outputs, typescriptLoaded: typescriptLoaded() }));
`;

function probeScripts(body: string): Record<'esm' | 'cjs', readonly string[]> {
  return {
    esm: [
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
const { createCodeTools } = await import(${JSON.stringify(pathToFileURL(join(dist, 'explore.js')).href)});
const requireForCache = createRequire(${JSON.stringify(join(dist, 'explore.js'))});
${body}`,
    ],
    cjs: [
      '-e',
      // The entry is ESM only: CommonJS loads it through Node's require(esm).
      `const { createCodeTools } = require(${JSON.stringify(join(dist, 'explore.js'))});
const requireForCache = require;
(async () => {${body}})().catch((error) => { console.error(error); process.exitCode = 1; });`,
    ],
  };
}

const probes = probeScripts(probeBody);
const pythonProbes = probeScripts(pythonProbeBody);

let root: string;
let pythonRoot: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lazy-typescript-test-'));
  await writeFile(
    join(root, 'shapes.ts'),
    'export function area(radius: number): number {\n  return radius;\n}\n',
  );
  await writeFile(join(root, 'README.md'), '# shapes\n');
  pythonRoot = await mkdtemp(join(tmpdir(), 'lazy-typescript-python-test-'));
  await mkdir(join(pythonRoot, 'pkg'));
  await writeFile(join(pythonRoot, 'pkg', '__init__.py'), '');
  await writeFile(
    join(pythonRoot, 'pkg', 'core.py'),
    'class Circle:\n    def area(self):\n        return 3\n\n\ndef area(radius):\n    return radius * radius\n',
  );
  await writeFile(join(pythonRoot, 'app.py'), 'from pkg.core import area\n\nprint(area(2))\n');
  await writeFile(join(pythonRoot, 'README.md'), '# circles\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(pythonRoot, { recursive: true, force: true });
});

async function probe<Result = Probe>(
  format: 'esm' | 'cjs',
  scripts: Record<'esm' | 'cjs', readonly string[]> = probes,
  probeRoot: string = root,
): Promise<Result> {
  // A fresh parse cache each run: a parse cached by an earlier run would need no compiler.
  const cache = await mkdtemp(join(tmpdir(), 'lazy-typescript-cache-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PROBE_ROOT: probeRoot,
    TOOL_ORCHESTRATOR_CACHE_DIR: cache,
  };
  delete env.NODE_OPTIONS;
  try {
    const { stdout } = await run(process.execPath, scripts[format], { env, timeout: 15_000 });
    return JSON.parse(stdout) as Result;
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
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

describe('a repo without JS/TS files never loads typescript (dist/)', () => {
  for (const format of ['esm', 'cjs'] as const) {
    it(`${format}: every code intelligence tool on a Python repo answers without the compiler`, async () => {
      const result = await probe<{ outputs: string[]; typescriptLoaded: boolean }>(
        format,
        pythonProbes,
        pythonRoot,
      );
      const [symbols, structure, imports, definition, references, graph, map] = result.outputs;
      expect(symbols).toContain('tree-sitter');
      expect(symbols).toContain('method Circle.area L2-3');
      expect(structure).toContain('Circle');
      expect(imports).toContain('pkg/core.py');
      expect(definition).toContain('pkg/core.py:6');
      expect(references).toContain('app.py (2)');
      expect(references).toContain('3: print(area(2))');
      expect(graph).toContain('pkg/core.py');
      expect(map).toContain('pkg/core.py');
      expect(result.typescriptLoaded).toBe(false);
    });
  }
});
