/**
 * `npm run bench [-- --quick] [-- --only=loop,run-api,checkpoint,context,scale-out,stream,adapter,code,scale,mcp,trace,replay,evals]
 * [-- --rounds=N] [-- --baseline=DIR] [-- --stores=Memory,File] [-- --corpus=PATH]` from the repository root. `--stores`
 * limits the checkpoint suite to the stores whose names start so (no store always runs). `--baseline` names a built
 * checkout (say main's) whose code index runs alternate with ours. `--corpus` names the astro tarball (or its folder)
 * for the `scale` suite.
 * Writes the report to stdout and to bench/results/.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeEnvironment } from './environment.js';
import { runLoopSuite } from './loop/loop-suite.js';
import { runRunApiSuite } from './loop/run-api-suite.js';
import { runCheckpointSuite } from './loop/checkpoint-suite.js';
import { runScaleSuite } from './scale-out/scale-suite.js';
import { buildChildren, childEntries } from './run-child.js';
import { runStreamSuite } from './stream/stream-suite.js';
import { runAdapterSuite } from './adapter/adapter-suite.js';
import { runCodeSuite } from './code/code-suite.js';
import { runCodeScaleSuite } from './code-scale/code-scale-suite.js';
import { runContextSuite } from './context/context-suite.js';
import { runMcpSuite } from './mcp/mcp-suite.js';
import { runTraceSuite } from './trace/trace-suite.js';
import { runReplaySuite } from './replay/replay-suite.js';
import { runEvalsSuite } from './evals/evals-suite.js';

type Suite =
  | 'loop'
  | 'run-api'
  | 'checkpoint'
  | 'context'
  | 'scale-out'
  | 'stream'
  | 'adapter'
  | 'code'
  | 'scale'
  | 'mcp'
  | 'trace'
  | 'replay'
  | 'evals';
const suiteNames: readonly Suite[] = [
  'loop',
  'run-api',
  'checkpoint',
  'context',
  'scale-out',
  'stream',
  'adapter',
  'code',
  'scale',
  'mcp',
  'trace',
  'replay',
  'evals',
];

interface CliOptions {
  readonly quick: boolean;
  /** `--baseline=DIR`: a built checkout the loop and code suites measure beside this one. */
  readonly baseline?: string;
  readonly rounds: number;
  readonly suites: readonly Suite[];
  /** `--stores=Memory,File`: the checkpoint suite measures only the stores whose names start so. */
  readonly stores?: readonly string[];
  /** `--corpus=PATH`: the astro tarball for the scale suite, or a folder holding it. */
  readonly corpus?: string;
}

function parseArguments(argv: readonly string[]): CliOptions {
  const quick = argv.includes('--quick');
  const value = (name: string): string | undefined =>
    argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
  const suites = (value('only')?.split(',') ?? [...suiteNames]) as Suite[];
  for (const suite of suites) {
    if (!suiteNames.includes(suite))
      throw new Error(`--only takes ${suiteNames.join(', ')}; got "${suite}".`);
  }
  const rounds = Number(value('rounds') ?? (quick ? 1 : 5));
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`--rounds must be a positive integer; got "${value('rounds')}".`);
  const baseline = value('baseline');
  if (baseline !== undefined && !existsSync(`${baseline}/dist/explore.js`))
    throw new Error(
      `--baseline must be a built checkout of tool-orchestrator (with dist/explore.js); got "${baseline}".`,
    );
  const stores = value('stores')?.split(',');
  const corpus = value('corpus');
  return {
    quick,
    rounds,
    suites,
    ...(baseline === undefined ? {} : { baseline }),
    ...(stores === undefined ? {} : { stores }),
    ...(corpus === undefined ? {} : { corpus }),
  };
}

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const root = fileURLToPath(new URL('../../', import.meta.url));
  if (!existsSync(`${root}dist/index.js`)) {
    throw new Error('tool-orchestrator is not built: run `npm run build` at the repository root first.');
  }
  const started = performance.now();
  await buildChildren(childEntries);
  const sections: string[] = [
    `## Run of ${new Date().toISOString()}`,
    '',
    `Command: \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` (${options.rounds} rounds${options.quick ? ', quick' : ''})`,
    '',
    ...describeEnvironment(),
    '',
  ];
  if (options.suites.includes('loop')) {
    log('Loop overhead (a fresh process per library, scenario and round):');
    const report = await runLoopSuite({
      rounds: options.rounds,
      child: options.quick
        ? { warmupMs: 0, minWarmupRuns: 0, timedMs: 100, minTimedRuns: 1, allocationRuns: 1 }
        : { warmupMs: 500, minWarmupRuns: 3, timedMs: 1500, minTimedRuns: 5, allocationRuns: 3 },
      groupScenarios: options.quick,
      ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
      log,
    });
    sections.push(report.markdown, '');
    log(`Loop overhead took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (options.suites.includes('run-api')) {
    log('The run API against plain run() (the variants alternate in one process per scenario and round):');
    const report = await runRunApiSuite({
      rounds: options.rounds,
      child: options.quick
        ? { warmupMs: 0, timedMs: 200, minCycles: 3 }
        : { warmupMs: 500, timedMs: 3000, minCycles: 20 },
      log,
    });
    sections.push(report.markdown, '');
    log(`Up to the run API: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (options.suites.includes('checkpoint')) {
    log(
      'Durable runs: the checkpoint stores against no store (the variants alternate in one process per round):',
    );
    const report = await runCheckpointSuite({
      rounds: options.quick ? 1 : options.rounds,
      child: {
        ...(options.quick
          ? { warmupMs: 0, timedMs: 500, minCycles: 3 }
          : { warmupMs: 1000, timedMs: 5000, minCycles: 10 }),
        ...(options.stores === undefined ? {} : { variants: options.stores }),
      },
      log,
    });
    sections.push(report.markdown, '');
    log(`Up to the checkpoint stores: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (options.suites.includes('context')) {
    log('Context window: tokens sent and prefix changes over a scripted exploration (counts, one run):');
    const report = await runContextSuite({ turns: 200, log });
    sections.push(report.markdown, '');
  }
  if (options.suites.includes('scale-out')) {
    log('Scale-out: runs per second through BullMQ and Redis with 1, 2 and 4 worker processes:');
    const report = await runScaleSuite({
      rounds: options.quick ? 1 : Math.min(options.rounds, 3),
      runs: options.quick ? 200 : 1000,
      concurrency: 50,
      log,
    });
    sections.push(report.markdown, '');
    log(`Up to scale-out: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  if (options.suites.includes('stream')) {
    log('Streaming and the wire (a local server in a worker thread, a fresh process per job and round):');
    const report = await runStreamSuite({
      rounds: options.quick ? 1 : Math.min(options.rounds, 3),
      child: {
        contentTokens: 2000,
        argumentFragments: 13,
        chunkIntervalMs: 1,
        warmupAnswers: options.quick ? 0 : 1,
        answers: options.quick ? 1 : 2,
        runToolTurns: 20,
        warmupMs: options.quick ? 0 : 500,
        timedMs: options.quick ? 300 : 2000,
        minTimedRuns: options.quick ? 2 : 5,
      },
      log,
    });
    sections.push(report.markdown, '');
    log(`Up to streaming: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (options.suites.includes('adapter')) {
    log('Adapter overhead per call against the official client (alternating in one process):');
    const report = await runAdapterSuite({
      rounds: options.quick ? 1 : options.rounds,
      calls: options.quick ? 100 : 500,
      log,
    });
    sections.push(report.markdown, '');
    log(`Up to adapter overhead: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (options.suites.includes('code')) {
    log('Code tools (a fresh process per job and round):');
    const report = await runCodeSuite({
      rounds: options.quick ? 1 : Math.min(options.rounds, 3),
      repeats: options.quick ? 2 : 5,
      log,
      ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
    });
    sections.push(report.markdown, '');
  }
  if (options.suites.includes('scale')) {
    log('Code intelligence at scale on astro (a fresh process per cold answer and round):');
    const report = await runCodeScaleSuite({
      rounds: options.quick ? 1 : Math.min(options.rounds, 3),
      repeats: options.quick ? 2 : 5,
      monorepo: !options.quick,
      log,
      ...(options.corpus === undefined ? {} : { corpus: options.corpus }),
      ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
    });
    sections.push(report.markdown, '');
    log(`Up to code intelligence at scale: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (options.suites.includes('mcp')) {
    log('MCP (a fresh process per job and round):');
    const report = await runMcpSuite({
      rounds: options.quick ? 1 : options.rounds,
      batches: options.quick ? 3 : 15,
      callsPerBatch: options.quick ? 50 : 300,
      startups: options.quick ? 2 : 7,
      log,
    });
    sections.push(report.markdown, '');
  }
  if (options.suites.includes('trace')) {
    log('Trace sinks and the viewer (a fresh process per sink and round):');
    const report = await runTraceSuite({
      rounds: options.rounds,
      sink: options.quick
        ? { warmupMs: 0, minWarmupRuns: 2, timedMs: 200, minTimedRuns: 5, allocationRuns: 1 }
        : { warmupMs: 500, minWarmupRuns: 5, timedMs: 1500, minTimedRuns: 20, allocationRuns: 3 },
      render: {
        toolTurns: 6666,
        renders: options.quick ? 1 : 5,
        pageLoads: options.quick ? 1 : 3,
        chromiumPath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      },
      log,
    });
    sections.push(report.markdown, '');
  }
  if (options.suites.includes('replay')) {
    log('Replay: ReplayAdapter per call against ScriptedAdapter (a fresh process per round):');
    const report = await runReplaySuite({
      rounds: options.rounds,
      child: options.quick
        ? { warmupMs: 0, timedMs: 200, minCycles: 3 }
        : { warmupMs: 500, timedMs: 3000, minCycles: 20 },
      log,
    });
    sections.push(report.markdown, '');
  }
  if (options.suites.includes('evals')) {
    log('evaluate() over scripted cases (in this process):');
    const report = await runEvalsSuite({
      rounds: options.quick ? 1 : Math.min(options.rounds, 3),
      cases: 1000,
      concurrency: 8,
      log,
    });
    sections.push(report.markdown, '');
  }
  sections.push(`Total time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const markdown = sections.join('\n');
  process.stdout.write(`${markdown}\n`);
  const results = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(results, { recursive: true });
  writeFileSync(`${results}${new Date().toISOString().replaceAll(':', '-')}.md`, `${markdown}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
