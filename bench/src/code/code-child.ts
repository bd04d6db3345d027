/**
 * Code-tool benchmarks in a fresh process. `index`: parse every file of a tree (symbols and imports)
 * with a fresh CodeIndex, then `repo_map`. `lookup`: cold and warm `get_definition` or
 * `get_references`. `search`: `search_text` against ripgrep on the same tree and patterns.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tool } from 'tool-orchestrator';
import type * as Explore from 'tool-orchestrator/explore';
import { median } from '../measure.js';

export interface CodeChildOptions {
  readonly mode: 'index' | 'lookup' | 'search';
  readonly root: string;
  /** `lookup`: the tool. */
  readonly tool?: 'get_definition' | 'get_references';
  /** `lookup`: the cold query first, then the warm ones; `search`: the patterns. */
  readonly queries?: readonly string[];
  readonly repeats: number;
  /** A built checkout of tool-orchestrator to measure instead of this one (its `dist/explore.js`): the `--baseline`. */
  readonly packageRoot?: string;
}

export interface CodeChildResult {
  readonly mode: CodeChildOptions['mode'];
  readonly root: string;
  readonly packageRoot?: string;
  readonly ok: boolean;
  readonly failure?: string;
  readonly files?: number;
  /** First index in the process: loading the TypeScript compiler (and any grammar) included. */
  readonly indexMs?: number;
  /** Heap in use after the first index, garbage collected, minus before it (MB): the index's own memory. */
  readonly indexHeapMb?: number;
  /** Resident set size after the first index minus before it (MB): compiler, grammars and WebAssembly memory included. */
  readonly indexRssMb?: number;
  /** A second fresh CodeIndex in the same process. */
  readonly reindexMs?: number;
  readonly repoMapColdMs?: number;
  readonly repoMapWarmMs?: number;
  readonly tool?: string;
  readonly coldMs?: number;
  /** Median over the other queries, on the built index. */
  readonly warmMs?: number;
  /** The cold query asked again. */
  readonly repeatMs?: number;
  readonly searches?: readonly {
    readonly pattern: string;
    readonly oursMs: number;
    readonly ripgrepMs: number;
    /** `rg --version` spawned the same way: the fixed cost of running rg from Node. */
    readonly ripgrepSpawnMs: number;
    readonly oursMatches: number;
    readonly ripgrepMatches: number;
  }[];
}

const context = {
  requestId: 'bench',
  runId: 'bench',
  turnIndex: 0,
  toolCallId: 'bench',
  signal: new AbortController().signal,
};

/** What must stay reachable while memory is measured. */
const retained: unknown[] = [];

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function toolOf(registry: Record<string, Tool<any, any, any>>, name: string): Tool<any, any, any> {
  const tool = registry[name];
  if (tool === undefined) throw new Error(`createCodeTools returned no ${name} tool.`);
  return tool;
}

async function call(tool: Tool, input: unknown): Promise<string> {
  const parsed = tool.schema.validate(input);
  if (!parsed.success) throw new Error(`invalid input for ${tool.name}: ${JSON.stringify(input)}`);
  const result = await tool.execute(parsed.value, context as never);
  return typeof result === 'string' ? result : JSON.stringify(result);
}

function matchedLines(output: string): number {
  return output.split('\n').filter((line) => /^[^\s:][^:]*:\d+:/.test(line)).length;
}

async function measure(options: CodeChildOptions): Promise<CodeChildResult> {
  const base = {
    mode: options.mode,
    root: options.root,
    ...(options.packageRoot === undefined ? {} : { packageRoot: options.packageRoot }),
  };
  try {
    const { CodeIndex, createCodeTools } = (await (options.packageRoot === undefined
      ? import('tool-orchestrator/explore')
      : import(pathToFileURL(join(options.packageRoot, 'dist', 'explore.js')).href))) as typeof Explore;
    if (options.mode === 'index') {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      const before = process.memoryUsage();
      const index = new CodeIndex({ root: options.root });
      const { value: graph, ms: indexMs } = await timed(() => index.importGraph());
      // Held until measured: unreferenced, the index would be collected and its memory not counted.
      retained.push(index);
      gc?.();
      const after = process.memoryUsage();
      const megabytes = (bytes: number): number => Math.round(bytes / 1e5) / 10;
      // Again with the TypeScript compiler loaded and the files in the OS cache: the indexing itself.
      const again = await timed(() => new CodeIndex({ root: options.root }).importGraph());
      const registry = createCodeTools({ root: options.root, tools: ['repo_map'] });
      const repoMap = toolOf(registry, 'repo_map');
      const cold = await timed(() => call(repoMap, {}));
      if (cold.value.length < 100) throw new Error(`repo_map returned only ${JSON.stringify(cold.value)}`);
      const warm: number[] = [];
      for (let index = 0; index < options.repeats; index++)
        warm.push((await timed(() => call(repoMap, {}))).ms);
      return {
        ...base,
        ok: true,
        files: graph.files,
        indexMs,
        indexHeapMb: megabytes(after.heapUsed - before.heapUsed),
        indexRssMb: megabytes(after.rss - before.rss),
        reindexMs: again.ms,
        repoMapColdMs: cold.ms,
        repoMapWarmMs: median(warm),
      };
    }
    if (options.mode === 'lookup') {
      const [first, ...others] = options.queries ?? [];
      if (first === undefined || others.length === 0)
        throw new Error('lookup needs a cold query and warm queries');
      const registry = createCodeTools({ root: options.root, tools: [options.tool ?? 'get_definition'] });
      const tool = toolOf(registry, options.tool ?? 'get_definition');
      const check = (output: string, symbol: string): void => {
        if (!output.includes(symbol) || /not found|no definition|no references/i.test(output.slice(0, 200))) {
          throw new Error(`${tool.name} ${symbol} found nothing: ${output.slice(0, 200)}`);
        }
      };
      const cold = await timed(() => call(tool, { symbol: first }));
      check(cold.value, first);
      const warm: number[] = [];
      for (const symbol of others) {
        const result = await timed(() => call(tool, { symbol }));
        check(result.value, symbol);
        warm.push(result.ms);
      }
      const repeat = await timed(() => call(tool, { symbol: first }));
      return {
        ...base,
        ok: true,
        tool: tool.name,
        coldMs: cold.ms,
        warmMs: median(warm),
        repeatMs: repeat.ms,
      };
    }
    const registry = createCodeTools({ root: options.root, tools: ['search_text'] });
    const search = toolOf(registry, 'search_text');
    const searches = [];
    for (const pattern of options.queries ?? []) {
      const ours: number[] = [];
      const ripgrep: number[] = [];
      const spawns: number[] = [];
      let oursMatches = 0;
      let ripgrepMatches = 0;
      // One untimed call each first (file cache, JIT), then alternate.
      for (let repeat = -1; repeat < options.repeats; repeat++) {
        const result = await timed(() => call(search, { pattern, max_results: 2000 }));
        // A cut output would undercount: report it as a mismatch rather than hide it.
        oursMatches = result.value.includes('[Output cut at') ? -1 : matchedLines(result.value);
        const started = performance.now();
        const rg = spawnSync('rg', ['-i', '-n', '--no-heading', '--no-config', pattern, '.'], {
          cwd: options.root,
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        });
        const rgMs = performance.now() - started;
        if (rg.error !== undefined) throw rg.error;
        // The cost of starting rg at all, to estimate its search time without the spawn.
        const spawnStarted = performance.now();
        spawnSync('rg', ['--version'], { cwd: options.root, encoding: 'utf8' });
        const spawnMs = performance.now() - spawnStarted;
        ripgrepMatches = rg.stdout.split('\n').filter((line) => line !== '').length;
        if (repeat >= 0) {
          ours.push(result.ms);
          ripgrep.push(rgMs);
          spawns.push(spawnMs);
        }
      }
      searches.push({
        pattern,
        oursMs: median(ours),
        ripgrepMs: median(ripgrep),
        ripgrepSpawnMs: median(spawns),
        oursMatches,
        ripgrepMatches,
      });
    }
    return { ...base, ok: true, searches };
  } catch (error) {
    return { ...base, ok: false, failure: (error as Error).message };
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as CodeChildOptions;
measure(options).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  },
);
