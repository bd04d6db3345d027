import { formatNumber, formatRatio, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { runChild } from '../run-child.js';
import type { StreamChildOptions, StreamChildResult } from './stream-child.js';

export interface StreamSuiteOptions {
  readonly rounds: number;
  readonly child: Omit<StreamChildOptions, 'mode' | 'library'>;
  readonly log: (line: string) => void;
}

type Job = Pick<StreamChildOptions, 'mode' | 'library' | 'wire'>;

const latencyJobs: readonly Job[] = [
  { mode: 'latency', library: 'ours' },
  { mode: 'latency', library: 'openai client' },
  { mode: 'latency', library: 'ours', wire: 'responses' },
  { mode: 'latency', library: 'openai client', wire: 'responses' },
];
const runJobs: readonly Job[] = [
  { mode: 'run', library: 'ours' },
  { mode: 'run', library: 'openai runTools' },
];

/** Streaming latency and the 20-turn HTTP run; a fresh process per job and round, order rotating. */
export async function runStreamSuite(
  options: StreamSuiteOptions,
): Promise<{ results: StreamChildResult[]; markdown: string }> {
  const results: StreamChildResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    for (const jobs of [latencyJobs, runJobs]) {
      const order = jobs.map((_, index) => jobs[(index + round) % jobs.length]!);
      for (const job of order) {
        const result = await runChild<StreamChildResult>('stream-child', { ...options.child, ...job }).catch(
          (error: unknown): StreamChildResult => ({ ...job, ok: false, failure: (error as Error).message }),
        );
        options.log(
          `  round ${round + 1}/${options.rounds} ${job.mode}${job.wire === undefined ? '' : ` (${job.wire})`} ${job.library}: ${
            !result.ok
              ? `FAILED ${result.failure}`
              : job.mode === 'latency'
                ? `median ${formatNumber(result.contentLatencyMedian)} µs, p99 ${formatNumber(result.contentLatencyP99)} µs`
                : `${formatNumber(result.microsecondsPerTurn)} µs/turn (${result.timedRuns} runs)`
          }`,
        );
        results.push(result);
      }
    }
  }
  const pick = (job: Job, value: (result: StreamChildResult) => number | undefined): number | undefined => {
    const matching = results.filter(
      (result) =>
        result.mode === job.mode &&
        result.library === job.library &&
        (result.wire ?? 'chat') === (job.wire ?? 'chat'),
    );
    if (matching.length === 0 || matching.some((result) => !result.ok)) return undefined;
    return median(matching.map(value).filter((entry): entry is number => entry !== undefined));
  };
  const [oursLatency, rawLatency, oursResponses, rawResponses] = latencyJobs as [Job, Job, Job, Job];
  const [oursRun, runTools] = runJobs as [Job, Job];
  type Row = [string, (result: StreamChildResult) => number | undefined, Job, Job];
  const definitions: Row[] = [
    ['content_delta latency, median (µs)', (result) => result.contentLatencyMedian, oursLatency, rawLatency],
    ['content_delta latency, p99 (µs)', (result) => result.contentLatencyP99, oursLatency, rawLatency],
    [
      'tool_call_delta latency, median (µs)',
      (result) => result.toolCallLatencyMedian,
      oursLatency,
      rawLatency,
    ],
    [
      'Responses API: output_text delta latency, median (µs)',
      (result) => result.contentLatencyMedian,
      oursResponses,
      rawResponses,
    ],
    [
      'Responses API: output_text delta latency, p99 (µs)',
      (result) => result.contentLatencyP99,
      oursResponses,
      rawResponses,
    ],
    [
      'Responses API: function_call_arguments delta latency, median (µs)',
      (result) => result.toolCallLatencyMedian,
      oursResponses,
      rawResponses,
    ],
    ['20-turn run over HTTP, µs/run', (result) => result.microsecondsPerRun, oursRun, runTools],
    ['20-turn run over HTTP, µs/turn', (result) => result.microsecondsPerTurn, oursRun, runTools],
  ];
  const rows = definitions.map(([label, read, ours, peer]) => {
    const oursValue = pick(ours, read);
    const peerValue = pick(peer, read);
    return [
      label,
      formatNumber(oursValue),
      `${formatNumber(peerValue)} (${peer.library})`,
      formatRatio(oursValue, peerValue),
    ];
  });
  const failures = results
    .filter((result) => !result.ok)
    .map((result) => `- ${result.mode} ${result.library}: ${result.failure}`);
  const markdown = [
    '### Streaming and the wire (medians over rounds)',
    '',
    markdownTable(['metric', 'ours', 'reference', 'ours / reference'], rows),
    ...(failures.length === 0 ? [] : ['', 'Failed:', ...failures]),
  ].join('\n');
  return { results, markdown };
}
