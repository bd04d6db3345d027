import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber, formatRatio, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { compiledChildPath, runChild } from '../run-child.js';
import type { McpChildOptions, McpChildResult } from './mcp-child.js';

export interface McpSuiteOptions {
  readonly rounds: number;
  readonly batches: number;
  readonly callsPerBatch: number;
  readonly startups: number;
  readonly log: (line: string) => void;
}

/** Per-call overhead of connectMcpServer against the SDK client, and `mcp serve` start-up; a fresh process per job and round. */
export async function runMcpSuite(
  options: McpSuiteOptions,
): Promise<{ results: McpChildResult[]; markdown: string }> {
  const rootPackage = fileURLToPath(new URL('../../../package.json', import.meta.url));
  const common = {
    batches: options.batches,
    callsPerBatch: options.callsPerBatch,
    startups: options.startups,
    echoServer: compiledChildPath('mcp-echo-server'),
    cli: fileURLToPath(new URL('../../../dist/cli.js', import.meta.url)),
    // The served repository: axios, as in the code benchmarks (start-up does not index it).
    repo: dirname(createRequire(rootPackage).resolve('axios/package.json')),
  };
  const jobs: McpChildOptions[] = (['memory', 'stdio', 'startup'] as const).map((mode) => ({
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
  const callRows = (['memory', 'stdio'] as const).map((mode) => [
    mode === 'memory' ? 'in memory (linked transports)' : 'stdio (a child process each)',
    formatNumber(
      pick(mode, (result) => result.directUs),
      1,
    ),
    formatNumber(
      pick(mode, (result) => result.executeUs),
      1,
    ),
    ratio(pick(mode, (result) => result.executeRatio)),
    formatNumber(
      pick(mode, (result) => result.runnerDirectUs),
      1,
    ),
    formatNumber(
      pick(mode, (result) => result.runnerUs),
      1,
    ),
    ratio(pick(mode, (result) => result.runnerRatio)),
    ratio(pick(mode, (result) => result.runnerToDirectRatio)),
  ]);
  const startupRow = [
    formatNumber(
      pick('startup', (result) => result.serveMs),
      0,
    ),
    formatNumber(
      pick('startup', (result) => result.baselineMs),
      0,
    ),
    ratio(pick('startup', (result) => result.startupRatio)),
  ];
  const failures = results
    .filter((result) => !result.ok)
    .map((result) => `- ${result.mode}: ${result.failure}`);
  const markdown = [
    '### MCP: per-call cost through connectMcpServer against the SDK client called directly (µs per call, medians)',
    '',
    `One \`echo\` tool (100 characters in and out) on the SDK's own low-level server; ${options.batches} interleaved batches of ${options.callsPerBatch} sequential calls per process, ${options.rounds} processes. Ratios are medians of per-batch ratios; goal ≤ 1.1x. C and D take the loop's path (JSON arguments parsed and validated, a per-call timeout and abort signal), so D / C is what connectMcpServer adds in a run.`,
    '',
    markdownTable(
      [
        'transport',
        'A: SDK `client.callTool`',
        'B: our tool `execute`',
        'B / A',
        'C: `ToolRunner`, hand-written tool calling the SDK',
        'D: `ToolRunner`, our tool',
        'D / C',
        'D / A',
      ],
      callRows,
    ),
    '',
    '### MCP: `tool-orchestrator mcp serve` start-up, spawn to the first `tools/list` answer (ms, medians)',
    '',
    `${options.startups} starts of each per process, alternating, ${options.rounds} processes; the baseline is the smallest SDK server (one tool, nothing else loaded). Goal < 500 ms.`,
    '',
    markdownTable(['`mcp serve` (12 code tools)', 'smallest SDK server', 'ratio'], [startupRow]),
    ...(failures.length === 0 ? [] : ['', 'Failures:', ...failures]),
  ].join('\n');
  return { results, markdown };
}
