/**
 * MCP benchmarks in a fresh process. `memory` and `stdio`: the cost of one tool call through
 * `connectMcpServer` (its tool's `execute`, and the whole `ToolRunner` path the loop takes) against
 * the SDK's `Client.callTool` called directly, on the same server, in interleaved batches.
 * `startup`: spawn to the first `tools/list` answer, `tool-orchestrator mcp serve` against the
 * smallest SDK server.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ToolRunner, defineTool } from 'tool-orchestrator';
import type { ToolCall, ToolRegistry } from 'tool-orchestrator';
import { connectMcpServer } from 'tool-orchestrator/mcp';
import type { McpConnection } from 'tool-orchestrator/mcp';
import { median } from '../measure.js';
import { createEchoServer, echoTool } from './echo-server.js';

export interface McpChildOptions {
  readonly mode: 'memory' | 'stdio' | 'startup';
  readonly batches: number;
  readonly callsPerBatch: number;
  /** `startup`: how many servers of each kind to start. */
  readonly startups: number;
  /** The compiled echo server (`stdio`, `startup`). */
  readonly echoServer: string;
  /** `startup`: dist/cli.js and the repository it serves. */
  readonly cli: string;
  readonly repo: string;
}

export interface McpChildResult {
  readonly mode: McpChildOptions['mode'];
  readonly ok: boolean;
  readonly failure?: string;
  /** µs per call, medians over batches: the SDK's `callTool` alone. */
  readonly directUs?: number;
  /** Our tool's `execute` alone. */
  readonly executeUs?: number;
  /** Through `ToolRunner`: a hand-written tool calling the SDK client, and ours. */
  readonly runnerDirectUs?: number;
  readonly runnerUs?: number;
  /** Medians of per-batch ratios: execute / direct, runner (ours) / runner (hand-written), runner (ours) / direct. */
  readonly executeRatio?: number;
  readonly runnerRatio?: number;
  readonly runnerToDirectRatio?: number;
  /** ms from spawn to the first tools/list answer, medians. */
  readonly serveMs?: number;
  readonly baselineMs?: number;
  readonly startupRatio?: number;
}

const text = 'x'.repeat(100);
const context = { requestId: 'bench', runId: 'bench', turnIndex: 0, toolCallId: 'bench' };

async function perCallUs(calls: number, call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < calls; index++) await call();
  return ((performance.now() - started) * 1000) / calls;
}

async function callsBenchmark(options: McpChildOptions): Promise<McpChildResult> {
  const closers: (() => Promise<void>)[] = [];
  try {
    // Two clients of the same kind of server: the SDK called directly, and connectMcpServer.
    const direct = new Client({ name: 'direct', version: '1.0.0' });
    let ours: McpConnection;
    if (options.mode === 'memory') {
      const server = createEchoServer();
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      await direct.connect(clientSide);
      const ourServer = createEchoServer();
      const [ourClientSide, ourServerSide] = InMemoryTransport.createLinkedPair();
      await ourServer.connect(ourServerSide);
      ours = await connectMcpServer({ transport: ourClientSide });
    } else {
      const spec = { command: process.execPath, args: [options.echoServer, 'serve'] };
      await direct.connect(new StdioClientTransport(spec));
      ours = await connectMcpServer(spec);
    }
    closers.push(
      () => direct.close(),
      () => ours.close(),
    );
    const tools: ToolRegistry = ours.tools;
    const echo = tools['echo']!;
    const runner = new ToolRunner(tools);
    // The SDK client called directly from a tool of our own: what connectMcpServer replaces.
    const handWritten: ToolRegistry = {
      echo: defineTool({
        name: 'echo',
        description: echoTool.description,
        parameters: echoTool.inputSchema,
        timeoutMs: 60_000,
        execute: async (input: Record<string, unknown>, { signal }) => {
          const result = await direct.callTool({ name: 'echo', arguments: input }, { signal });
          return (result.content as { text: string }[])[0]!.text;
        },
      }),
    };
    const handWrittenRunner = new ToolRunner(handWritten);
    const toolCalls: ToolCall[] = [
      { id: 'c', type: 'function', function: { name: 'echo', arguments: JSON.stringify({ text }) } },
    ];
    // The loop's run signal: one per run, shared by its calls.
    const signal = new AbortController().signal;
    const variants = {
      direct: async () => {
        const result = await direct.callTool({ name: 'echo', arguments: { text } });
        // What a caller of the SDK does at least: read the text out.
        return (result.content as { text: string }[])[0]!.text;
      },
      execute: () => Promise.resolve(echo.execute({ text }, { ...context, signal })),
      runnerDirect: () => handWrittenRunner.executeToolCalls(handWritten, toolCalls, { ...context, signal }),
      runner: () => runner.executeToolCalls(tools, toolCalls, { ...context, signal }),
    };
    for (const [name, registryRunner, registry] of [
      ['ours', runner, tools],
      ['hand-written', handWrittenRunner, handWritten],
    ] as const) {
      const check = await registryRunner.executeToolCalls(registry, toolCalls, { ...context, signal });
      if (check[0]!.content !== text) throw new Error(`unexpected ${name} echo result: ${check[0]!.content}`);
    }
    const names = Object.keys(variants) as (keyof typeof variants)[];
    for (const name of names) await perCallUs(options.callsPerBatch, variants[name]);
    const samples: Record<keyof typeof variants, number[]> = {
      direct: [],
      execute: [],
      runnerDirect: [],
      runner: [],
    };
    for (let batch = 0; batch < options.batches; batch++) {
      // Rotate the order so drift on a shared machine hits every variant alike.
      for (let offset = 0; offset < names.length; offset++) {
        const name = names[(batch + offset) % names.length]!;
        samples[name].push(await perCallUs(options.callsPerBatch, variants[name]));
      }
    }
    const ratio = (of: number[], to: number[]): number =>
      median(of.map((value, batch) => value / to[batch]!));
    return {
      mode: options.mode,
      ok: true,
      directUs: median(samples.direct),
      executeUs: median(samples.execute),
      runnerDirectUs: median(samples.runnerDirect),
      runnerUs: median(samples.runner),
      executeRatio: ratio(samples.execute, samples.direct),
      runnerRatio: ratio(samples.runner, samples.runnerDirect),
      runnerToDirectRatio: ratio(samples.runner, samples.direct),
    };
  } finally {
    for (const close of closers) await close().catch(() => undefined);
  }
}

async function startupMs(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: 'startup', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  const { tools } = await client.listTools();
  const elapsed = performance.now() - started;
  await client.close();
  if (tools.length === 0) throw new Error(`${args.join(' ')} listed no tools`);
  return elapsed;
}

async function startupBenchmark(options: McpChildOptions): Promise<McpChildResult> {
  const serve: number[] = [];
  const baseline: number[] = [];
  for (let index = 0; index < options.startups; index++) {
    const ours = () => startupMs(process.execPath, [options.cli, 'mcp', 'serve', '--repo', options.repo]);
    const smallest = () => startupMs(process.execPath, [options.echoServer, 'serve']);
    if (index % 2 === 0) {
      serve.push(await ours());
      baseline.push(await smallest());
    } else {
      baseline.push(await smallest());
      serve.push(await ours());
    }
  }
  return {
    mode: 'startup',
    ok: true,
    serveMs: median(serve),
    baselineMs: median(baseline),
    startupRatio: median(serve.map((value, index) => value / baseline[index]!)),
  };
}

const options = JSON.parse(process.argv[2] ?? '{}') as McpChildOptions;
const result = await (options.mode === 'startup' ? startupBenchmark(options) : callsBenchmark(options)).catch(
  (error: unknown): McpChildResult => ({ mode: options.mode, ok: false, failure: String(error) }),
);
process.stdout.write(`${JSON.stringify(result)}\n`);
