/**
 * MCP benchmarks in a fresh process. `memory` and `stdio`: the cost of one tool call through
 * `connectMcpServer` (its tool's `execute`, and the whole `ToolRunner` path the loop takes) against
 * the SDK's `Client.callTool` called directly, each on its own server of the same kind, in batches.
 * `layer`: our layer alone, the SDK's `callTool` replaced by one that answers at once.
 * `startup`: spawn to the first `tools/list` answer, `tool-orchestrator mcp serve` against the
 * smallest SDK server.
 */
import { readFileSync } from 'node:fs';
import { ToolRunner, defineTool } from 'tool-orchestrator';
import type { ToolCall, ToolRegistry } from 'tool-orchestrator';
import { connectMcpServer } from 'tool-orchestrator/mcp';
import type { McpConnection } from 'tool-orchestrator/mcp';
import { median } from '../measure.js';
import { createEchoServer, echoTool } from './echo-server.js';
import { Client, InMemoryTransport, StdioClientTransport } from './sdk-client.js';

export interface McpChildOptions {
  readonly mode: 'memory' | 'stdio' | 'layer' | 'startup';
  readonly batches: number;
  readonly callsPerBatch: number;
  /** A batch runs each variant's calls in slices this long, interleaved with the others'. */
  readonly sliceCalls: number;
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
  /** Wall time per call. */
  readonly wall?: CallCosts;
  /** This process's CPU time per call. */
  readonly cpu?: CallCosts;
  /** ms from spawn to the first tools/list answer, medians. */
  readonly serveMs?: number;
  readonly baselineMs?: number;
  readonly startupRatio?: number;
  /** CPU ms the server used until its first tools/list answer (Linux), medians. */
  readonly serveCpuMs?: number;
  readonly baselineCpuMs?: number;
  /** `layer`: CPU ns per call with the SDK's `callTool` answering at once, medians over batches. */
  readonly layer?: { readonly bare: number; readonly ours: number; readonly added: number };
}

/** µs per call, medians over batches, and medians of per-batch ratios. */
export interface CallCosts {
  /** The SDK's `callTool` alone. */
  readonly direct: number;
  /** Our tool's `execute` alone. */
  readonly execute: number;
  /** Through `ToolRunner`: a hand-written tool calling the SDK client, and ours. */
  readonly runnerDirect: number;
  readonly runner: number;
  /** execute / direct, runner (ours) / runner (hand-written), runner (ours) / direct. */
  readonly executeRatio: number;
  readonly runnerRatio: number;
  readonly runnerToDirectRatio: number;
}

const text = 'x'.repeat(100);
const context = { requestId: 'bench', runId: 'bench', turnIndex: 0, toolCallId: 'bench' };

/**
 * `calls` sequential calls of `call`: wall time and this process's CPU time, in µs (the client
 * side, where our layer runs; the server's work is the same for every variant and the scheduling
 * of the other process on a busy machine does not count).
 */
async function timeCalls(
  calls: number,
  call: () => Promise<unknown>,
): Promise<{ wall: number; cpu: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < calls; index++) await call();
  const wall = (performance.now() - started) * 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, cpu: cpu.user + cpu.system };
}

type Variant = 'direct' | 'execute' | 'runnerDirect' | 'runner';
const variantNames: readonly Variant[] = ['direct', 'execute', 'runnerDirect', 'runner'];
const zero: Record<Variant, number> = { direct: 0, execute: 0, runnerDirect: 0, runner: 0 };

/** The SDK client called directly and connectMcpServer, each on its own server of the same kind. */
interface ClientPair {
  readonly direct: Client;
  readonly ours: McpConnection;
  close(): Promise<void>;
}

async function openPair(mode: 'memory' | 'stdio', echoServer: string): Promise<ClientPair> {
  const direct = new Client({ name: 'direct', version: '1.0.0' });
  let ours: McpConnection;
  if (mode === 'memory') {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createEchoServer().connect(serverSide);
    await direct.connect(clientSide);
    const [ourClientSide, ourServerSide] = InMemoryTransport.createLinkedPair();
    await createEchoServer().connect(ourServerSide);
    ours = await connectMcpServer({ transport: ourClientSide });
  } else {
    const spec = { command: process.execPath, args: [echoServer, 'serve'] };
    await direct.connect(new StdioClientTransport(spec));
    ours = await connectMcpServer(spec);
  }
  // connectMcpServer lists the tools; so does any SDK user who discovers them. The listing also
  // sets what the SDK client's callTool looks up (its output-schema cache), so both look up alike.
  await direct.listTools();
  return {
    direct,
    ours,
    close: async () => {
      await direct.close();
      await ours.close();
    },
  };
}

/** The four ways to make one call, on a pair of clients. */
function variantsOf(pair: ClientPair): Record<Variant, () => Promise<unknown>> {
  const tools: ToolRegistry = pair.ours.tools;
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
        const result = await pair.direct.callTool({ name: 'echo', arguments: input }, { signal });
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
  return {
    direct: async () => {
      // The run's signal, as our tool and the hand-written one pass theirs: a call that can be cancelled.
      const result = await pair.direct.callTool({ name: 'echo', arguments: { text } }, { signal });
      // What a caller of the SDK does at least: read the text out.
      return (result.content as { text: string }[])[0]!.text;
    },
    execute: () => Promise.resolve(echo.execute({ text }, { ...context, signal })),
    runnerDirect: () => handWrittenRunner.executeToolCalls(handWritten, toolCalls, { ...context, signal }),
    runner: () => runner.executeToolCalls(tools, toolCalls, { ...context, signal }),
  };
}

async function callsBenchmark(options: McpChildOptions): Promise<McpChildResult> {
  const mode = options.mode === 'memory' ? 'memory' : 'stdio';
  const wall: Record<Variant, number[]> = { direct: [], execute: [], runnerDirect: [], runner: [] };
  const cpu: Record<Variant, number[]> = { direct: [], execute: [], runnerDirect: [], runner: [] };
  // In memory one pair serves every batch. Over stdio each batch gets fresh children, so no
  // client keeps a child that the scheduler happens to treat better.
  const shared = mode === 'memory' ? await openPair(mode, options.echoServer) : undefined;
  const random = seededRandom(15);
  try {
    for (let batch = -1; batch < options.batches; batch++) {
      const pair = shared ?? (await openPair(mode, options.echoServer));
      try {
        const variants = variantsOf(pair);
        for (const name of variantNames) {
          const value = await variants[name]();
          const content = Array.isArray(value) ? (value[0] as { content: string }).content : value;
          if (content !== text) throw new Error(`unexpected ${name} echo result: ${String(content)}`);
        }
        // Each variant's calls of a batch run in short slices, interleaved, so a busy machine's
        // drift falls on every variant alike. Each slice runs the variants in a shuffled order: in
        // a fixed cycle each variant would always follow the same one and pay for what that one
        // left behind (its garbage, its transport's late work). Batch -1 warms up.
        const totals = { wall: { ...zero }, cpu: { ...zero } };
        for (let slice = 0; slice * options.sliceCalls < options.callsPerBatch; slice++) {
          const calls = Math.min(options.sliceCalls, options.callsPerBatch - slice * options.sliceCalls);
          for (const name of shuffle(variantNames, random)) {
            const spent = await timeCalls(calls, variants[name]);
            totals.wall[name] += spent.wall;
            totals.cpu[name] += spent.cpu;
          }
        }
        if (batch >= 0) {
          for (const name of variantNames) {
            wall[name].push(totals.wall[name] / options.callsPerBatch);
            cpu[name].push(totals.cpu[name] / options.callsPerBatch);
          }
        }
      } finally {
        if (shared === undefined) await pair.close();
      }
    }
  } finally {
    await shared?.close();
  }
  return { mode: options.mode, ok: true, wall: costs(wall), cpu: costs(cpu) };
}

/** A copy of `items` in random order (Fisher-Yates). */
function shuffle<Item>(items: readonly Item[], random: () => number): Item[] {
  const shuffled = [...items];
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
  }
  return shuffled;
}

/** mulberry32: a small seeded generator, so every run shuffles alike. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function costs(samples: Record<Variant, number[]>): CallCosts {
  const ratio = (of: number[], to: number[]): number => median(of.map((value, batch) => value / to[batch]!));
  return {
    direct: median(samples.direct),
    execute: median(samples.execute),
    runnerDirect: median(samples.runnerDirect),
    runner: median(samples.runner),
    executeRatio: ratio(samples.execute, samples.direct),
    runnerRatio: ratio(samples.runner, samples.runnerDirect),
    runnerToDirectRatio: ratio(samples.runner, samples.direct),
  };
}

/**
 * What our tool adds around the SDK call, alone: `Client.prototype.callTool` answers at once (no
 * transport, no server), and our tool's `execute` is timed against calling that same stub and
 * reading the text out (variant A's code). CPU ns per call, slices shuffled as in callsBenchmark.
 */
async function layerBenchmark(options: McpChildOptions): Promise<McpChildResult> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createEchoServer().connect(serverSide);
  const connection = await connectMcpServer({ transport: clientSide });
  try {
    const answer = { content: [{ type: 'text', text }] };
    // The same class our connection's client is made from (see sdk-client.ts).
    Client.prototype.callTool = () => Promise.resolve(answer) as ReturnType<Client['callTool']>;
    const stub = new Client({ name: 'stub', version: '1.0.0' });
    const echo = connection.tools['echo']!;
    const signal = new AbortController().signal;
    const callContext = { ...context, signal };
    const variants = {
      bare: async () => {
        const result = await stub.callTool({ name: 'echo', arguments: { text } }, { signal });
        return (result.content as { text: string }[])[0]!.text;
      },
      ours: () => Promise.resolve(echo.execute({ text }, callContext)),
    };
    const names = ['bare', 'ours'] as const;
    const samples = { bare: [] as number[], ours: [] as number[] };
    const random = seededRandom(15);
    // Calls this cheap need many per batch to rise above the clock's resolution.
    const calls = options.callsPerBatch * 100;
    const slice = options.sliceCalls * 100;
    for (let batch = -1; batch < options.batches; batch++) {
      const totals = { bare: 0, ours: 0 };
      for (let done = 0; done < calls; done += slice) {
        for (const name of shuffle(names, random))
          totals[name] += (await timeCalls(slice, variants[name])).cpu;
      }
      if (batch >= 0) for (const name of names) samples[name].push((totals[name] * 1000) / calls);
    }
    return {
      mode: 'layer',
      ok: true,
      layer: {
        bare: median(samples.bare),
        ours: median(samples.ours),
        added: median(samples.ours.map((value, batch) => value - samples.bare[batch]!)),
      },
    };
  } finally {
    await connection.close();
  }
}

/** CPU time (user + system) a process has used so far, from /proc (Linux); `undefined` elsewhere. */
function processCpuMs(pid: number | null): number | undefined {
  if (pid === null) return undefined;
  try {
    // Fields 14 and 15 of /proc/PID/stat, after the parenthesised command name, in clock ticks (100 Hz).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Spawn to the first tools/list answer: wall time, and the CPU time the server used until then. */
async function startup(command: string, args: string[]): Promise<{ wall: number; cpu: number | undefined }> {
  const started = performance.now();
  const client = new Client({ name: 'startup', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const wall = performance.now() - started;
  const cpu = processCpuMs(transport.pid);
  await client.close();
  if (tools.length === 0) throw new Error(`${args.join(' ')} listed no tools`);
  return { wall, cpu };
}

async function startupBenchmark(options: McpChildOptions): Promise<McpChildResult> {
  const serve: { wall: number; cpu: number | undefined }[] = [];
  const baseline: { wall: number; cpu: number | undefined }[] = [];
  for (let index = 0; index < options.startups; index++) {
    const ours = () => startup(process.execPath, [options.cli, 'mcp', 'serve', '--repo', options.repo]);
    const smallest = () => startup(process.execPath, [options.echoServer, 'serve']);
    if (index % 2 === 0) {
      serve.push(await ours());
      baseline.push(await smallest());
    } else {
      baseline.push(await smallest());
      serve.push(await ours());
    }
  }
  const cpuOf = (runs: typeof serve): number[] =>
    runs.flatMap((run) => (run.cpu === undefined ? [] : [run.cpu]));
  return {
    mode: 'startup',
    ok: true,
    serveMs: median(serve.map((run) => run.wall)),
    baselineMs: median(baseline.map((run) => run.wall)),
    startupRatio: median(serve.map((run, index) => run.wall / baseline[index]!.wall)),
    ...(cpuOf(serve).length === serve.length
      ? { serveCpuMs: median(cpuOf(serve)), baselineCpuMs: median(cpuOf(baseline)) }
      : {}),
  };
}

const options = JSON.parse(process.argv[2] ?? '{}') as McpChildOptions;
const benchmark =
  options.mode === 'startup' ? startupBenchmark : options.mode === 'layer' ? layerBenchmark : callsBenchmark;
const result = await benchmark(options).catch((error: unknown): McpChildResult => ({
  mode: options.mode,
  ok: false,
  failure: String(error),
}));
process.stdout.write(`${JSON.stringify(result)}\n`);
