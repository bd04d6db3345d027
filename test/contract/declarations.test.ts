import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entries, esmOnlyEntries } from '../../tsup.config.js';

// The packed declarations as an app type-checks them: `npm pack` of dist/ (run `npx tsup` after
// changing src/) unpacked into the node_modules of small apps, beside zod 4 or zod 3.25 and with
// or without the optional peers, which are linked from this repository's node_modules (nothing
// is downloaded). Every entry is imported, and `tsc --strict --skipLibCheck false` reads every
// declaration file it reaches.
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const compilerTimeoutMs = 240_000;

/** The optional peers whose types an app may or may not have (pg's come from @types/pg). */
const optionalPeers = [
  'openai',
  '@anthropic-ai/sdk',
  '@google/genai',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/server',
  '@opentelemetry/api',
  'pg',
  '@types/pg',
  'bullmq',
  'ioredis',
  'typescript',
  'web-tree-sitter',
];

/**
 * Entries typed against a peer's own types by design: the workflow side of the Temporal entry runs
 * only inside a Temporal workflow, whose code is written against `@temporalio/workflow`'s types
 * (activity options, signal and query definitions). The apps below leave it out; every other
 * entry's declarations import no optional peer.
 */
const peerTypedEntries: readonly string[] = ['temporal/workflow'];
const appEntries = Object.keys(entries).filter((entry) => !peerTypedEntries.includes(entry));

const specifierOf = (entry: string): string =>
  entry === 'index' ? 'tool-orchestrator' : `tool-orchestrator/${entry}`;

/** Imports every entry, and uses the zod-typed parts of the API with the app's own zod. */
const app = `
import { z } from 'zod';
${appEntries
  .map((entry, position) => `import * as entry${position} from '${specifierOf(entry)}';`)
  .join('\n')}
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';
import { ContextRequest, ExplorerReportSchema, createCodeTools } from 'tool-orchestrator/explore';
import type { ExplorerReport, FulfillContextInput } from 'tool-orchestrator/explore';

export const everyEntry = [${appEntries.map((_entry, position) => `entry${position}`).join(', ')}];

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});
export const orchestrator = new ToolOrchestrator(new ScriptedAdapter([]), { add, ...createCodeTools({ root: '.' }) });

export const report: ExplorerReport = ExplorerReportSchema.parse({});
export const confidence: number = report.confidence;
export const request: z.infer<typeof ContextRequest> = { provider: 'files', params: {}, reason: 'why' };
export const fulfillInput: FulfillContextInput = { requests: [{ provider: 'files', reason: 'why' }] };
`;

/** The CommonJS declarations (`.d.cts`) of the entries that have them. */
const commonJsApp = `
${appEntries
  .filter((entry) => !(esmOnlyEntries as readonly string[]).includes(entry))
  .map((entry) => `import ${entry} = require('${specifierOf(entry)}');`)
  .join('\n')}
export = [${appEntries.filter((entry) => !(esmOnlyEntries as readonly string[]).includes(entry)).join(', ')}];
`;

/** The peers' own objects, where the entries take or give them. */
const peersApp = `
import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { Tracer } from '@opentelemetry/api';
import type { Redis, RedisOptions } from 'ioredis';
import pg from 'pg';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { defineTool } from 'tool-orchestrator';
import { DeepSeekAdapter } from 'tool-orchestrator/deepseek';
import { OpenAIAdapter } from 'tool-orchestrator/openai';
import { AnthropicAdapter } from 'tool-orchestrator/anthropic';
import { connectMcpServer, createMcpServer } from 'tool-orchestrator/mcp';
import { createOtelSink } from 'tool-orchestrator/otel';
import { PostgresCheckpointStore } from 'tool-orchestrator/postgres';
import { RedisCheckpointStore, createRunQueue } from 'tool-orchestrator/bullmq';

declare const client: OpenAI;
export const adapters = [new OpenAIAdapter({ model: 'gpt-5-mini', client }), new DeepSeekAdapter({ model: 'deepseek-v4-flash', client })];
declare const anthropic: Anthropic;
export const claude = new AnthropicAdapter({ model: 'claude-sonnet-4-6', client: anthropic });

declare const tracer: Tracer;
export const sink = createOtelSink({ tracer });

declare const redis: Redis;
declare const redisOptions: RedisOptions;
export const queue = createRunQueue({ connection: redis });
export const stores = [
  new RedisCheckpointStore({ connection: redisOptions }),
  new RedisCheckpointStore({ connection: { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null } }),
  new PostgresCheckpointStore({ pool: new pg.Pool() }),
];

declare const transport: Transport;
export const connection = connectMcpServer({ transport });
const tools = { echo: defineTool({ name: 'echo', description: 'Echo', parameters: { type: 'object' }, execute: () => 'echo' }) };
export const handler = createMcpHandler(() => createMcpServer(tools, { name: 'echo', version: '1.0.0' }));
export async function serveInMemory(): Promise<void> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await createMcpServer(tools, { name: 'echo', version: '1.0.0' });
  await server.connect(serverSide);
  await connectMcpServer({ transport: clientSide });
}
`;

/**
 * A zod 3.25 in this repository's node_modules (a devDependency `"zod3": "npm:zod@3.25.x"`, or
 * the copy a dependency has), found through package-lock.json.
 */
function zod3Directory(): string {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { readonly version?: string }>;
  };
  const candidates = Object.entries(lock.packages)
    .filter(([path, entry]) => /(^|\/)node_modules\/zod3?$/.test(path) && entry.version?.startsWith('3.25.'))
    .map(([path]) => path)
    .sort((left, right) => Number(right === 'node_modules/zod3') - Number(left === 'node_modules/zod3'));
  const found = candidates.find((path) => existsSync(join(root, path, 'package.json')));
  if (found === undefined) {
    throw new Error(
      'No zod 3.25 is installed in node_modules: add the devDependency "zod3": "npm:zod@3.25.76" and run npm install.',
    );
  }
  return join(root, found);
}

let scratch: string;
let tarball: string;

/** Links `name` in `directory`'s node_modules to `target` (a junction on Windows). */
async function link(directory: string, name: string, target: string): Promise<void> {
  const path = join(directory, 'node_modules', name);
  await mkdir(dirname(path), { recursive: true });
  await symlink(target, path, 'junction');
}

/**
 * Writes an app that imports every entry, with the packed package unpacked in its node_modules,
 * `zod` from `zodDirectory` and `peers` linked from this repository, and type-checks it.
 *
 * @returns what tsc printed (its errors), empty when the app type-checks.
 */
async function typeCheckApp(name: string, zodDirectory: string, peers: readonly string[]): Promise<string> {
  const directory = join(scratch, name);
  const packageDirectory = join(directory, 'node_modules', 'tool-orchestrator');
  await mkdir(packageDirectory, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', packageDirectory, '--strip-components=1'], { timeout: 60_000 });
  await link(directory, 'zod', zodDirectory);
  await link(directory, '@types/node', join(root, 'node_modules', '@types', 'node'));
  for (const peer of peers) await link(directory, peer, join(root, 'node_modules', peer));
  const files = ['app.ts', 'app-require.cts', ...(peers.length > 0 ? ['peers.ts'] : [])];
  await writeFile(join(directory, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  await writeFile(
    join(directory, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022'],
        types: ['node'],
      },
      files,
    }),
  );
  await writeFile(join(directory, 'app.ts'), app);
  await writeFile(join(directory, 'app-require.cts'), commonJsApp);
  await writeFile(join(directory, 'peers.ts'), peersApp);
  try {
    await run(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', directory, '--pretty', 'false'],
      { cwd: directory, timeout: compilerTimeoutMs },
    );
    return '';
  } catch (error) {
    const { stdout, stderr, killed } = error as { stdout?: string; stderr?: string; killed?: boolean };
    if (killed === true) {
      throw new Error(`tsc was still running after ${compilerTimeoutMs} ms`, { cause: error });
    }
    return `${stdout ?? ''}${stderr ?? ''}`.trim() || String(error);
  }
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'declarations-test-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: root,
    timeout: 120_000,
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  tarball = join(scratch, packed?.filename ?? '');
}, 180_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the packed declarations in an app (tsc --strict --skipLibCheck false, every entry imported)', () => {
  it('import no optional peer, so an app with any of them and not the others type-checks too', () => {
    const { peerDependenciesMeta } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      peerDependenciesMeta: Record<string, unknown>;
    };
    const optional = Object.keys(peerDependenciesMeta);
    const dist = join(root, 'dist');
    const peerTypedFiles = peerTypedEntries.flatMap((entry) => [`${entry}.d.ts`, `${entry}.d.cts`]);
    const imports = readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .map((file) => file.split('\\').join('/'))
      .filter((file) => /\.d\.c?ts$/.test(file) && !peerTypedFiles.includes(file))
      .flatMap((file) =>
        readFileSync(join(dist, file), 'utf8')
          .split('\n')
          // Code, not the examples in doc comments.
          .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
          .flatMap((line) => [...line.matchAll(/(?:from\s*|import\s*\(?\s*)['"]([^'"]+)['"]/g)])
          .map((match) => ({ file, specifier: match[1] ?? '' })),
      );
    // The scan works: the declarations' own imports of zod are found.
    expect(imports.map(({ specifier }) => specifier)).toContain('zod');
    expect(
      imports.filter(({ specifier }) =>
        optional.some((peer) => specifier === peer || specifier.startsWith(`${peer}/`)),
      ),
    ).toEqual([]);
  });

  it(
    'type-check with zod 4 and every optional peer, which the entries take and give as their own types',
    async () => {
      expect(await typeCheckApp('zod4-with-peers', join(root, 'node_modules', 'zod'), optionalPeers)).toBe(
        '',
      );
    },
    compilerTimeoutMs + 30_000,
  );

  it(
    'type-check with zod 3.25 and every optional peer',
    async () => {
      expect(await typeCheckApp('zod3-with-peers', zod3Directory(), optionalPeers)).toBe('');
    },
    compilerTimeoutMs + 30_000,
  );

  it(
    'type-check with zod 4 and no optional peer installed',
    async () => {
      expect(await typeCheckApp('zod4-without-peers', join(root, 'node_modules', 'zod'), [])).toBe('');
    },
    compilerTimeoutMs + 30_000,
  );
});
