/**
 * Code intelligence at scale, in a fresh process. `first-answer`: one tool's first answer on a
 * corpus (the index built from nothing, or from a persistent cache), then optionally warm
 * `get_references` on names used in hundreds of files. `edit`: answer, change one file, answer
 * again. `search`: `search_text` against ripgrep, warm, on the same files and patterns.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tool } from 'tool-orchestrator';
import type * as Explore from 'tool-orchestrator/explore';
import { median } from '../measure.js';

/** The `cache` option of a build that has a persistent index: off, or a directory of its own. */
export type CacheSetting = false | { readonly directory: string };

interface ChildBase {
  readonly root: string;
  /** A built checkout of tool-orchestrator to measure instead of this one: the `--baseline`. */
  readonly packageRoot?: string;
}

export interface FirstAnswerJob extends ChildBase {
  readonly mode: 'first-answer';
  readonly tool: string;
  readonly input: Record<string, unknown>;
  /** Passed as `createCodeTools({ cache })`; a build without the option ignores it. */
  readonly cache: CacheSetting;
  /** Asked with `get_references` after the first answer, each once, on the built index. */
  readonly warmReferences?: readonly string[];
  /** When set, ripgrep is run once with these arguments after the first answer, for comparison. */
  readonly ripgrepArguments?: readonly string[];
}

export interface EditJob extends ChildBase {
  readonly mode: 'edit';
  /** The file changed, repo-relative. */
  readonly file: string;
  /** Appended to `file`: declares `declaredName` and adds `addedReferences` uses of `referencedName`. */
  readonly appended: string;
  readonly declaredName: string;
  readonly referencedName: string;
  readonly addedReferences: number;
}

/** One `search_text` input and the ripgrep arguments that should find the same lines. */
export interface SearchCase {
  readonly label: string;
  readonly input: Record<string, unknown>;
  readonly ripgrepArguments: readonly string[];
}

export interface SearchJob extends ChildBase {
  readonly mode: 'search';
  readonly cases: readonly SearchCase[];
  readonly repeats: number;
  /** Passed as `createCodeTools({ ripgrep })` when set: `true` asks a build that can use ripgrep to use it. */
  readonly ripgrep?: boolean;
}

export type CodeScaleChildOptions = FirstAnswerJob | EditJob | SearchJob;

export interface CodeScaleChildResult {
  readonly mode: CodeScaleChildOptions['mode'];
  readonly root: string;
  readonly packageRoot?: string;
  readonly ok: boolean;
  readonly failure?: string;
  /** `first-answer`: from the import of the package to the end of the first answer. */
  readonly firstMs?: number;
  /** Peak resident set size of this process, MB. */
  readonly peakRssMb?: number;
  /** The first 300 characters of the first answer, to show what was answered. */
  readonly answerHead?: string;
  readonly ripgrepMs?: number;
  readonly warm?: readonly { readonly name: string; readonly ms: number; readonly head: string }[];
  /**
   * Before the warm names, in a build whose index warms its program (`CodeIndex#warm`): how long
   * `warm()` took after the first answer (the work its background warming does between a
   * model's calls), and the process's peak RSS after it.
   */
  readonly warmUp?: { readonly ms: number; readonly peakRssMb: number };
  /** `edit`: time from the end of the write to a correct answer (or to giving up). */
  readonly edit?: {
    readonly definitionMs: number;
    readonly definitionCurrent: boolean;
    readonly definitionHead: string;
    readonly referencesMs: number;
    readonly referencesCurrent: boolean;
    readonly referencesBefore: number | undefined;
    readonly referencesAfter: number | undefined;
    /** How many answers it took: 1 when the first answer after the write was already current. */
    readonly attempts: number;
  };
  readonly searches?: readonly {
    readonly label: string;
    readonly oursMs: number;
    readonly ripgrepMs: number;
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

/** How long an edit may take to show before the answer is reported stale. */
const editPatienceMs = 2000;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** A tool's answer as text; a tool failure (e.g. "No definition") is an answer too. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(tool: Tool<any, any, any>, input: unknown): Promise<string> {
  const parsed = tool.schema.validate(input);
  if (!parsed.success) throw new Error(`invalid input for ${tool.name}: ${JSON.stringify(input)}`);
  try {
    const result: unknown = await tool.execute(parsed.value, context as never);
    return typeof result === 'string' ? result : JSON.stringify(result);
  } catch (error) {
    return `Error: ${(error as Error).message}`;
  }
}

function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
}

/** The tool registry of the build under test, with the options a newer build may understand. */
async function codeTools(
  job: ChildBase,
  options: {
    readonly tools: readonly string[];
    readonly cache: CacheSetting;
    readonly maxOutputChars?: number;
    readonly ripgrep?: boolean;
  },
): Promise<{
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly tools: Record<string, Tool<any, any, any>>;
  readonly index: InstanceType<typeof Explore.CodeIndex> | undefined;
}> {
  const { createCodeTools, CodeIndex } = (await (job.packageRoot === undefined
    ? import('tool-orchestrator/explore')
    : import(pathToFileURL(join(job.packageRoot, 'dist', 'explore.js')).href))) as typeof Explore;
  // A build that warms its program gets its index from here, so the job can wait for the warming.
  const index =
    typeof (CodeIndex.prototype as { warm?: unknown }).warm === 'function'
      ? new CodeIndex({ root: job.root, cache: options.cache })
      : undefined;
  const settings = {
    root: job.root,
    tools: options.tools,
    cache: options.cache,
    ...(index === undefined ? {} : { index }),
    ...(options.maxOutputChars === undefined ? {} : { limits: { maxOutputChars: options.maxOutputChars } }),
    ...(options.ripgrep === undefined ? {} : { ripgrep: options.ripgrep }),
  };
  // `cache` and `ripgrep` are not in every build's options type: a build without them ignores the fields.
  return { tools: createCodeTools(settings as Parameters<typeof createCodeTools>[0]), index };
}

function ripgrep(root: string, argumentsList: readonly string[]): { ms: number; lines: number } {
  const started = performance.now();
  const result = spawnSync('rg', argumentsList, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`rg ${argumentsList.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, lines: result.stdout.split('\n').filter((line) => line !== '').length };
}

/** Matched lines in a `search_text` answer: its own total when it shows fewer, else its lines. */
function searchMatches(output: string): number {
  if (output.includes('[Output cut at')) return -1;
  const total = /\[Showing \d+ of (\d+) matching lines/.exec(output);
  if (total !== null) return Number(total[1]);
  return output.split('\n').filter((line) => /^[^\s:][^:]*:\d+:/.test(line)).length;
}

function referencesTotal(output: string): number | undefined {
  const match = /^(\d+) references? to /.exec(output);
  return match === null ? undefined : Number(match[1]);
}

async function firstAnswer(job: FirstAnswerJob): Promise<CodeScaleChildResult> {
  const started = performance.now();
  const tools = [job.tool, ...(job.warmReferences === undefined ? [] : ['get_references'])];
  const { tools: registry, index } = await codeTools(job, { tools: [...new Set(tools)], cache: job.cache });
  const answer = await call(registry[job.tool]!, job.input);
  const firstMs = performance.now() - started;
  if (answer.startsWith('Error:')) throw new Error(`${job.tool} answered ${answer.slice(0, 300)}`);
  const peak = peakRssMb();
  let warmUp: CodeScaleChildResult['warmUp'];
  if (job.warmReferences !== undefined && index !== undefined) {
    const { ms } = await timed(() => index.warm());
    warmUp = { ms, peakRssMb: peakRssMb() };
  }
  const warm = [];
  for (const name of job.warmReferences ?? []) {
    const { value, ms } = await timed(() => call(registry['get_references']!, { symbol: name }));
    if (value.startsWith('Error:')) throw new Error(`get_references ${name} answered ${value.slice(0, 300)}`);
    warm.push({ name, ms, head: value.slice(0, 120) });
  }
  const rg = job.ripgrepArguments === undefined ? undefined : ripgrep(job.root, job.ripgrepArguments);
  // The child ends with process.exit(): a build whose close() finishes writing the cache gets to,
  // as a process left to end on its own would (the CLI), so a second process finds it.
  await (index as { close?: () => unknown } | undefined)?.close?.();
  return {
    mode: job.mode,
    root: job.root,
    ok: true,
    firstMs,
    peakRssMb: peak,
    answerHead: answer.slice(0, 300),
    ...(warm.length === 0 ? {} : { warm }),
    ...(warmUp === undefined ? {} : { warmUp }),
    ...(rg === undefined ? {} : { ripgrepMs: rg.ms }),
  };
}

async function edit(job: EditJob): Promise<CodeScaleChildResult> {
  const { tools: registry } = await codeTools(job, {
    tools: ['get_definition', 'get_references'],
    cache: false,
  });
  const definition = registry['get_definition']!;
  const references = registry['get_references']!;
  const referencesBefore = referencesTotal(await call(references, { symbol: job.referencedName }));
  const missing = await call(definition, { symbol: job.declaredName });
  if (!missing.startsWith('Error:'))
    throw new Error(`${job.declaredName} is declared before the edit: ${missing.slice(0, 200)}`);
  appendFileSync(join(job.root, job.file), job.appended);
  const written = performance.now();
  let attempts = 0;
  let definitionHead = '';
  let definitionCurrent = false;
  while (!definitionCurrent && performance.now() - written < editPatienceMs) {
    attempts++;
    definitionHead = await call(definition, { symbol: job.declaredName });
    definitionCurrent = definitionHead.includes(`${job.file}:`);
    if (!definitionCurrent) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const definitionMs = performance.now() - written;
  const referencesStarted = performance.now();
  const expected = referencesBefore === undefined ? undefined : referencesBefore + job.addedReferences;
  let referencesAfter: number | undefined;
  let referencesCurrent = false;
  while (!referencesCurrent && performance.now() - referencesStarted < editPatienceMs) {
    referencesAfter = referencesTotal(await call(references, { symbol: job.referencedName }));
    referencesCurrent = expected !== undefined && referencesAfter === expected;
    if (!referencesCurrent) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    mode: job.mode,
    root: job.root,
    ok: true,
    peakRssMb: peakRssMb(),
    edit: {
      definitionMs,
      definitionCurrent,
      definitionHead: definitionHead.slice(0, 200),
      referencesMs: performance.now() - referencesStarted,
      referencesCurrent,
      referencesBefore,
      referencesAfter,
      attempts,
    },
  };
}

async function search(job: SearchJob): Promise<CodeScaleChildResult> {
  // A large output cap, so every matched line up to max_results is formatted and counted.
  const { tools: registry } = await codeTools(job, {
    tools: ['search_text'],
    cache: false,
    maxOutputChars: 50_000_000,
    ...(job.ripgrep === undefined ? {} : { ripgrep: job.ripgrep }),
  });
  const tool = registry['search_text']!;
  const searches = [];
  for (const searchCase of job.cases) {
    const ours: number[] = [];
    const theirs: number[] = [];
    let oursMatches = 0;
    let ripgrepMatches = 0;
    // One untimed call each first (file cache, JIT), then alternate.
    for (let repeat = -1; repeat < job.repeats; repeat++) {
      const result = await timed(() => call(tool, { ...searchCase.input, max_results: 2000 }));
      if (result.value.startsWith('Error:')) throw new Error(`search_text answered ${result.value}`);
      oursMatches = searchMatches(result.value);
      const rg = ripgrep(job.root, searchCase.ripgrepArguments);
      ripgrepMatches = rg.lines;
      if (repeat >= 0) {
        ours.push(result.ms);
        theirs.push(rg.ms);
      }
    }
    searches.push({
      label: searchCase.label,
      oursMs: median(ours),
      ripgrepMs: median(theirs),
      oursMatches,
      ripgrepMatches,
    });
  }
  return { mode: job.mode, root: job.root, ok: true, peakRssMb: peakRssMb(), searches };
}

async function measure(job: CodeScaleChildOptions): Promise<CodeScaleChildResult> {
  const base = {
    mode: job.mode,
    root: job.root,
    ...(job.packageRoot === undefined ? {} : { packageRoot: job.packageRoot }),
  };
  try {
    const result =
      job.mode === 'first-answer'
        ? await firstAnswer(job)
        : job.mode === 'edit'
          ? await edit(job)
          : await search(job);
    return { ...result, ...base };
  } catch (error) {
    return { ...base, ok: false, failure: (error as Error).message };
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as CodeScaleChildOptions;
measure(options).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    // Search workers or a file watcher of the build may keep the event loop alive.
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
