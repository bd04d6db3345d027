import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The child entry points, compiled once per benchmark run so children start without a TypeScript loader. */
export const childEntries = [
  'loop-child',
  'run-api-child',
  'checkpoint-child',
  'stream-child',
  'sse-server-worker',
  'code-child',
  'code-scale-child',
  'compiler-floor-child',
  'mcp-child',
  'mcp-echo-server',
  'sink-child',
  'render-child',
  'scale-worker',
  'replay-child',
] as const;
export type ChildEntry = (typeof childEntries)[number];

const sources: Record<ChildEntry, string> = {
  'loop-child': './loop/loop-child.ts',
  'run-api-child': './loop/run-api-child.ts',
  'checkpoint-child': './loop/checkpoint-child.ts',
  'stream-child': './stream/stream-child.ts',
  'sse-server-worker': './stream/sse-server-worker.ts',
  'code-child': './code/code-child.ts',
  'code-scale-child': './code-scale/code-scale-child.ts',
  'compiler-floor-child': './code-scale/compiler-floor-child.ts',
  'mcp-child': './mcp/mcp-child.ts',
  'mcp-echo-server': './mcp/echo-server.ts',
  'sink-child': './trace/sink-child.ts',
  'render-child': './trace/render-child.ts',
  'scale-worker': './scale-out/scale-worker.ts',
  'replay-child': './replay/replay-child.ts',
};

const buildDirectory = fileURLToPath(new URL('../results/.build/', import.meta.url));

/** Where a compiled child entry is, e.g. to start it as a server. */
export function compiledChildPath(entry: ChildEntry): string {
  return `${buildDirectory}${entry}.mjs`;
}

/** Bundles the child entries (packages stay external) into bench/results/.build/. */
export async function buildChildren(entries: readonly ChildEntry[]): Promise<void> {
  await build({
    entryPoints: Object.fromEntries(
      entries.map((entry) => [entry, fileURLToPath(new URL(sources[entry], import.meta.url))]),
    ),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: buildDirectory,
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
  });
}

/** Runs a compiled child entry in a fresh Node process (with `--expose-gc`) and parses its last stdout line as JSON. */
export async function runChild<Result>(
  entry: ChildEntry,
  argument: unknown,
  options: { readonly timeoutMs?: number } = {},
): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce<Result>(entry, argument, options.timeoutMs ?? 300_000);
    } catch (error) {
      // Another engineer's `npm run build` empties dist/ for a few seconds; wait for it rather than fail.
      const missingBuild = /Cannot find (module|package) '[^']*tool-orchestrator/.test(
        (error as Error).message,
      );
      if (!missingBuild || attempt >= 12) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
}

function runOnce<Result>(entry: ChildEntry, argument: unknown, timeoutMs: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--no-warnings', `${buildDirectory}${entry}.mjs`, JSON.stringify(argument)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: timeoutMs,
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && (line.startsWith('{') || line.startsWith('['))) {
        resolve(JSON.parse(line) as Result);
        return;
      }
      reject(
        new Error(
          `${entry} ${JSON.stringify(argument)} exited with ${signal ?? code}: ${stderr.trim().slice(-1500)}`,
        ),
      );
    });
  });
}
