import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber, formatRatio, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { compiledChildPath, runChild } from '../run-child.js';
import type { CallCosts, McpChildOptions, McpChildResult } from './mcp-child.js';

export interface McpSuiteOptions {
  readonly rounds: number;
  readonly batches: number;
  readonly callsPerBatch: number;
  readonly startups: number;
  readonly log: (line: string) => void;
}

/** Calls per slice: a batch interleaves the variants in slices this long. */
const sliceCalls = 25;

/** Per-call overhead of connectMcpServer against the SDK client, and `mcp serve` start-up; a fresh process per job and round. */
export async function runMcpSuite(
  options: McpSuiteOptions,
): Promise<{ results: McpChildResult[]; markdown: string }> {
  const rootPackage = fileURLToPath(new URL('../../../package.json', import.meta.url));
  const common = {
    batches: options.batches,
    callsPerBatch: options.callsPerBatch,
    sliceCalls,
    startups: options.startups,
    echoServer: compiledChildPath('mcp-echo-server'),
    cli: fileURLToPath(new URL('../../../dist/cli.js', import.meta.url)),
    // The served repository: axios, as in the code benchmarks (start-up does not index it).
    repo: dirname(createRequire(rootPackage).resolve('axios/package.json')),
  };
  const jobs: McpChildOptions[] = (['memory', 'stdio', 'layer', 'startup'] as const).map((mode) => ({
    mode,
    ...common,
  }));
  const results: McpChildResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    for (const job of jobs) {
      const result = await runChild<McpChildResult>('mcp-child', job).catch(
        (error: unknown): McpChildResult => ({
          mode: job.mode,
          ok: false,
          failure: (error as Error).message,
        }),
      );
      options.log(
        `  round ${round + 1}/${options.rounds} ${job.mode}: ${result.ok ? 'ok' : `FAILED ${result.failure}`}`,
      );
      results.push(result);
    }
  }
  const pick = (
    mode: McpChildResult['mode'],
    value: (result: McpChildResult) => number | undefined,
  ): number | undefined => {
    const matching = results.filter((result) => result.mode === mode);
    if (matching.length === 0 || matching.some((result) => !result.ok)) return undefined;
    return median(matching.map(value).filter((entry): entry is number => entry !== undefined));
  };
  const ratio = (value: number | undefined): string => (value === undefined ? 'n/a' : formatRatio(value, 1));
  const us = (value: number | undefined): string => formatNumber(value, 1);
  const ms = (value: number | undefined): string => formatNumber(value, 0);
  const callRows = (measure: 'wall' | 'cpu'): string[][] =>
    (['memory', 'stdio'] as const).map((mode) => {
      const of = (value: (costs: CallCosts) => number): number | undefined =>
        pick(mode, (result) => (result[measure] === undefined ? undefined : value(result[measure])));
      return [
        mode === 'memory' ? 'in memory (linked transports)' : 'stdio (a child process per client)',
        us(of((costs) => costs.direct)),
        us(of((costs) => costs.execute)),
        ratio(of((costs) => costs.executeRatio)),
        us(of((costs) => costs.runnerDirect)),
        us(of((costs) => costs.runner)),
        ratio(of((costs) => costs.runnerRatio)),
        ratio(of((costs) => costs.runnerToDirectRatio)),
      ];
    });
  const callHeader = [
    'transport',
    'A: SDK `client.callTool`',
    'B: our tool `execute`',
    'B / A',
    'C: `ToolRunner`, hand-written tool calling the SDK',
    'D: `ToolRunner`, our tool',
    'D / C',
    'D / A',
  ];
  const startupRow = [
    ms(pick('startup', (result) => result.serveMs)),
    ms(pick('startup', (result) => result.baselineMs)),
    ratio(pick('startup', (result) => result.startupRatio)),
    ms(pick('startup', (result) => result.serveCpuMs)),
    ms(pick('startup', (result) => result.baselineCpuMs)),
    formatRatio(
      pick('startup', (result) => result.serveCpuMs),
      pick('startup', (result) => result.baselineCpuMs),
    ),
  ];
  const failures = results
    .filter((result) => !result.ok)
    .map((result) => `- ${result.mode}: ${result.failure}`);
  const markdown = [
    '### MCP: per-call cost through connectMcpServer against the SDK client called directly (µs per call, medians)',
    '',
    `One \`echo\` tool (100 characters in and out) on the SDK's own low-level server (over stdio, a child process per client, fresh for every batch); ${options.batches} batches of ${options.callsPerBatch} sequential calls of each variant per process, run in slices of ${sliceCalls} calls interleaved, in a shuffled order per slice, ${options.rounds} processes. A passes the run's abort signal as the others do, on a client that has listed its tools as connectMcpServer's has. Ratios are medians of per-batch ratios; goal ≤ 1.1x. C and D take the loop's path (JSON arguments parsed and validated, a per-call timeout and abort signal), so D / C is what connectMcpServer adds in a run.`,
    '',
    'Wall time per call:',
    '',
    markdownTable(callHeader, callRows('wall')),
    '',
    "CPU time of the calling process per call (where our layer runs; the server's work is the same for every variant, and waiting for a busy machine to schedule the server does not count):",
    '',
    markdownTable(callHeader, callRows('cpu')),
    '',
    "Our layer alone: the SDK's `callTool` replaced by a stub that answers at once (no transport, no server); CPU ns per call of calling the stub as A does, and of our tool's `execute` around it (medians over batches and processes):",
    '',
    markdownTable(
      ['A on the stub', 'B on the stub', 'B − A: what our tool adds per call'],
      [
        [
          formatNumber(
            pick('layer', (result) => result.layer?.bare),
            0,
          ),
          formatNumber(
            pick('layer', (result) => result.layer?.ours),
            0,
          ),
          formatNumber(
            pick('layer', (result) => result.layer?.added),
            0,
          ),
        ],
      ],
    ),
    '',
    '### MCP: `tool-orchestrator mcp serve` start-up, spawn to the first `tools/list` answer (ms, medians)',
    '',
    `${options.startups} starts of each per process, alternating, ${options.rounds} processes; the baseline is the smallest SDK server (one tool, nothing else loaded). Goal < 500 ms. The server's CPU time until its answer (from /proc, 10 ms ticks) does not count waiting for a busy machine.`,
    '',
    markdownTable(
      [
        'wall: `mcp serve` (12 code tools)',
        'wall: smallest SDK server',
        'ratio',
        "server's CPU: `mcp serve`",
        "server's CPU: smallest SDK server",
        'ratio',
      ],
      [startupRow],
    ),
    ...(failures.length === 0 ? [] : ['', 'Failures:', ...failures]),
  ].join('\n');
  return { results, markdown };
}
