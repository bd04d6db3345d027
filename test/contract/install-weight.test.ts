import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceUnavailable } from '../support/service-availability.js';

// The package as a user installs it: `npm pack` of dist/ (built by the global setup when missing;
// run `npx tsup` after changing src/), installed into a temporary consumer project with `npm ci
// --offline` from a lockfile made of this repository's own (so the npm cache that `npm ci` filled
// serves every tarball and nothing touches the network).
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
/**
 * The install-weight budget: the dependencies beside zod, this package included. Its dist/ is not
 * minified, so that Node's report of an uncaught error shows a readable line of it.
 */
const maxBytesBesideZod = 3_300_000;

interface LockEntry {
  readonly version: string;
  readonly resolved?: string;
  readonly integrity?: string;
  readonly license?: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, unknown>;
}

interface PackageJson {
  readonly version: string;
  readonly license: string;
  readonly dependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly peerDependenciesMeta: Record<string, unknown>;
  readonly bin: Record<string, string>;
  readonly engines: Record<string, string>;
}

let scratch: string;
let tarball: string;
let unavailable: string | undefined;
/** Consumer projects by name: 'plain' (tool-orchestrator and zod), 'with-typescript'. */
const consumers: Record<string, string> = {};

/**
 * Writes a consumer project whose lockfile pins `tool-orchestrator` to the packed tarball and
 * every other package to this repository's lock entry, and installs it offline.
 */
async function installConsumer(name: string, extra: readonly string[]): Promise<string> {
  const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as PackageJson;
  const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const packages: Record<string, unknown> = {};
  const pin = (dependency: string): string => {
    const entry = lock.packages[`node_modules/${dependency}`];
    if (entry === undefined) throw new Error(`package-lock.json has no entry for ${dependency}`);
    if (packages[`node_modules/${dependency}`] === undefined) {
      packages[`node_modules/${dependency}`] = entry;
      for (const transitive of Object.keys(entry.dependencies ?? {})) pin(transitive);
    }
    return entry.version;
  };
  for (const dependency of Object.keys(packageJson.dependencies)) pin(dependency);
  const tarballSpec = `file:../${tarball.split('/').pop() ?? ''}`;
  const dependencies: Record<string, string> = { 'tool-orchestrator': tarballSpec, zod: pin('zod') };
  for (const dependency of extra) dependencies[dependency] = pin(dependency);
  packages['node_modules/tool-orchestrator'] = {
    version: packageJson.version,
    resolved: tarballSpec,
    integrity: `sha512-${createHash('sha512')
      .update(await readFile(tarball))
      .digest('base64')}`,
    license: packageJson.license,
    dependencies: packageJson.dependencies,
    peerDependencies: packageJson.peerDependencies,
    peerDependenciesMeta: packageJson.peerDependenciesMeta,
    bin: packageJson.bin,
    engines: packageJson.engines,
  };
  packages[''] = { name, dependencies };
  const directory = join(scratch, name);
  await mkdir(directory);
  await writeFile(
    join(directory, 'package.json'),
    JSON.stringify({ name, private: true, type: 'module', dependencies }),
  );
  await writeFile(
    join(directory, 'package-lock.json'),
    JSON.stringify({ name, lockfileVersion: 3, requires: true, packages }),
  );
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: directory,
    timeout: 120_000,
  });
  await mkdir(join(directory, 'repo'));
  await writeFile(
    join(directory, 'repo', 'shapes.ts'),
    'export function area(side: number): number {\n  return side * side;\n}\n',
  );
  return directory;
}

/** Bytes of every file below `directory` (apparent sizes, as `du -b` counts them, folders aside). */
async function bytesBelow(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    total += entry.isDirectory() ? await bytesBelow(path) : (await lstat(path)).size;
  }
  return total;
}

async function node(consumer: string, args: readonly string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  const { stdout } = await run(process.execPath, [...args], { cwd: consumer, env, timeout: 60_000 });
  return stdout;
}

/** The README's quickstart loop, run from the installed package (ESM). */
const loopProbe = `
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';
const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});
const adapter = new ScriptedAdapter([
  ScriptedAdapter.toolCalls([['add', { a: 2, b: 3 }]]),
  (messages) => ScriptedAdapter.text('2 + 3 = ' + messages.at(-1)?.content),
]);
const { content, stopReason } = await new ToolOrchestrator(adapter, { add }).run([{ role: 'user', content: 'What is 2+3?' }]);
console.log(content, stopReason);
`;

/** list_files and get_symbols from `tool-orchestrator/explore`, through import or require. */
function exploreProbe(format: 'esm' | 'cjs'): string[] {
  const body = `
const context = { signal: new AbortController().signal };
const tools = createCodeTools({ root: 'repo' });
const result = { listed: await tools.list_files.execute({}, context) };
try {
  result.symbols = await tools.get_symbols.execute({ path: 'shapes.ts' }, context);
} catch (error) {
  result.error = { name: error.name, code: error.code, packageName: error.packageName, message: error.message };
}
console.log(JSON.stringify(result));`;
  return format === 'esm'
    ? ['--input-type=module', '-e', `import { createCodeTools } from 'tool-orchestrator/explore';\n${body}`]
    : ['-e', `const { createCodeTools } = require('tool-orchestrator/explore');\n(async () => {${body}})();`];
}

interface ExploreResult {
  readonly listed: string;
  readonly symbols?: string;
  readonly error?: { name: string; code: string; packageName: string; message: string };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'install-weight-test-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: root,
    timeout: 120_000,
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  tarball = join(scratch, packed?.filename ?? '');
  try {
    consumers['plain'] = await installConsumer('plain', []);
    consumers['with-typescript'] = await installConsumer('with-typescript', ['typescript']);
  } catch (error) {
    const detail = String((error as { stderr?: unknown }).stderr ?? error);
    if (!/ENOTCACHED/.test(detail)) throw error;
    unavailable = serviceUnavailable(
      'An offline install from the npm cache',
      'a package of package-lock.json is not in the npm cache; run npm ci first',
    );
  }
}, 300_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('npm install tool-orchestrator zod (the packed tarball, no typescript)', () => {
  it('weighs under 3.3 MB beside zod and brings no TypeScript compiler', async (context) => {
    if (unavailable !== undefined) context.skip(unavailable);
    const nodeModules = join(consumers['plain'] ?? '', 'node_modules');
    const besideZod = (await bytesBelow(nodeModules)) - (await bytesBelow(join(nodeModules, 'zod')));
    console.info(`install weight beside zod: ${besideZod.toLocaleString('en-US')} bytes`);
    expect(besideZod).toBeLessThan(maxBytesBesideZod);
    await expect(lstat(join(nodeModules, 'typescript'))).rejects.toThrow(/ENOENT/);
    const shipped = await readdir(join(nodeModules, 'tool-orchestrator', 'dist'));
    expect(shipped.filter((file) => file.endsWith('.map'))).toEqual([]);
  });

  it('runs the loop from the root entry', async (context) => {
    if (unavailable !== undefined) context.skip(unavailable);
    expect(await node(consumers['plain'] ?? '', ['--input-type=module', '-e', loopProbe])).toBe(
      '2 + 3 = 5 final\n',
    );
  });

  for (const format of ['esm', 'cjs'] as const) {
    it(`${format}: tool-orchestrator/explore lists files, and the code intelligence tools name the missing package and its install command`, async (context) => {
      if (unavailable !== undefined) context.skip(unavailable);
      const result = JSON.parse(await node(consumers['plain'] ?? '', exploreProbe(format))) as ExploreResult;
      expect(result.listed).toBe('shapes.ts');
      expect(result.symbols).toBeUndefined();
      expect(result.error).toMatchObject({
        name: 'MissingDependencyError',
        code: 'missing_dependency',
        packageName: 'typescript',
      });
      expect(result.error?.message).toMatch(
        /^The code intelligence tools \(get_symbols, .*\) and CodeIndex need the package "typescript" \(>=5\.3\.0 <7\), which is not installed\. Install it beside tool-orchestrator: npm install typescript@5$/,
      );
    });
  }
});

describe('the same install with typescript beside it', () => {
  for (const format of ['esm', 'cjs'] as const) {
    it(`${format}: the code intelligence tools work`, async (context) => {
      if (unavailable !== undefined) context.skip(unavailable);
      const result = JSON.parse(
        await node(consumers['with-typescript'] ?? '', exploreProbe(format)),
      ) as ExploreResult;
      expect(result.error).toBeUndefined();
      expect(result.symbols).toContain('TypeScript parser');
      expect(result.symbols).toContain('area');
    });
  }
});
