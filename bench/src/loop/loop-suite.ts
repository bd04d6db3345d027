import { formatBytes, formatNumber, formatRatio, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { runChild } from '../run-child.js';
import { baselineLibrary, loopLibraryNames } from './libraries/index.js';
import type { LoopChildOptions, LoopChildResult } from './loop-child.js';
import type { ScenarioName } from './scenarios.js';

/** How long each child warms up and measures. */
export interface LoopSuiteOptions {
  readonly rounds: number;
  readonly child: Omit<LoopChildOptions, 'library' | 'scenarios'>;
  readonly groupScenarios: boolean;
  readonly libraries?: readonly string[];
  /** A built checkout (say main's) measured beside this one as the library `baseline`. */
  readonly baseline?: string;
  readonly log: (line: string) => void;
}

interface Metric {
  readonly label: string;
  readonly scenario: ScenarioName;
  readonly value: (result: LoopChildResult) => number | undefined;
  readonly format: (value: number | undefined) => string;
}

const micro = (value: number | undefined): string => formatNumber(value, 1);
const times = (value: number | undefined): string => (value === undefined ? 'n/a' : `${value.toFixed(2)}x`);
const lateOverEarly = (result: LoopChildResult): number | undefined =>
  result.lateTurnMicroseconds === undefined || result.earlyTurnMicroseconds === undefined
    ? undefined
    : result.lateTurnMicroseconds / result.earlyTurnMicroseconds;

const metrics: readonly Metric[] = [
  { label: 'S1 µs/turn', scenario: 'S1', value: (result) => result.microsecondsPerTurn, format: micro },
  { label: 'S1 µs/call', scenario: 'S1', value: (result) => result.microsecondsPerCall, format: micro },
  {
    label: 'S1 µs/turn, turns 1-20',
    scenario: 'S1',
    value: (result) => result.earlyTurnMicroseconds,
    format: micro,
  },
  {
    label: 'S1 µs/turn, last 20',
    scenario: 'S1',
    value: (result) => result.lateTurnMicroseconds,
    format: micro,
  },
  { label: 'S1 late/early turn cost', scenario: 'S1', value: lateOverEarly, format: times },
  {
    label: 'S1 allocated/run',
    scenario: 'S1',
    value: (result) => result.bytesAllocatedPerRun,
    format: formatBytes,
  },
  {
    label: 'S1 heap retained after timed runs',
    scenario: 'S1',
    value: (result) => result.retainedBytes,
    format: formatBytes,
  },
  { label: 'S2 µs/call', scenario: 'S2', value: (result) => result.microsecondsPerCall, format: micro },
  { label: 'S2 µs/run', scenario: 'S2', value: (result) => result.microsecondsPerRun, format: micro },
  {
    label: 'S2 allocated/run',
    scenario: 'S2',
    value: (result) => result.bytesAllocatedPerRun,
    format: formatBytes,
  },
  { label: 'S2 heap retained', scenario: 'S2', value: (result) => result.retainedBytes, format: formatBytes },
  {
    label: 'S3 (200 turns) µs/turn',
    scenario: 'S3-200',
    value: (result) => result.microsecondsPerTurn,
    format: micro,
  },
  {
    label: 'S3 (200 turns) µs/call',
    scenario: 'S3-200',
    value: (result) => result.microsecondsPerCall,
    format: micro,
  },
  {
    label: 'S3 µs/turn, turns 1-20',
    scenario: 'S3-200',
    value: (result) => result.earlyTurnMicroseconds,
    format: micro,
  },
  {
    label: 'S3 µs/turn, last 20',
    scenario: 'S3-200',
    value: (result) => result.lateTurnMicroseconds,
    format: micro,
  },
  { label: 'S3 late/early turn cost', scenario: 'S3-200', value: lateOverEarly, format: times },
  {
    label: 'S3 allocated/run',
    scenario: 'S3-200',
    value: (result) => result.bytesAllocatedPerRun,
    format: formatBytes,
  },
  {
    label: 'S3 heap retained',
    scenario: 'S3-200',
    value: (result) => result.retainedBytes,
    format: formatBytes,
  },
  {
    label: 'S3 (50 turns) µs/turn',
    scenario: 'S3-50',
    value: (result) => result.microsecondsPerTurn,
    format: micro,
  },
  { label: 'S3 (50 turns) late/early turn cost', scenario: 'S3-50', value: lateOverEarly, format: times },
];

const scenarios: readonly ScenarioName[] = ['S1', 'S2', 'S3-200', 'S3-50'];

export interface LoopSuiteReport {
  readonly rounds: LoopChildResult[][];
  /** Median over rounds, by metric label, then library; `undefined` where a library failed verification. */
  readonly medians: Record<string, Record<string, number | undefined>>;
  readonly failures: string[];
  readonly markdown: string;
}

/** Runs every scenario for every library, each in a fresh process, rotating the library order each round. */
export async function runLoopSuite(options: LoopSuiteOptions): Promise<LoopSuiteReport> {
  const libraries = [
    ...(options.libraries ?? loopLibraryNames),
    ...(options.baseline === undefined ? [] : [baselineLibrary]),
  ];
  const rounds: LoopChildResult[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = libraries.map((_, index) => libraries[(index + round) % libraries.length]!);
    const results: LoopChildResult[] = [];
    // Quick mode measures every scenario of a library in one process; otherwise one process per scenario.
    const groups = options.groupScenarios ? [scenarios] : scenarios.map((scenario) => [scenario]);
    for (const group of groups) {
      for (const library of order) {
        const childStarted = performance.now();
        const batch = await runChild<LoopChildResult[]>('loop-child', {
          ...options.child,
          library,
          ...(library === baselineLibrary && options.baseline !== undefined
            ? { packageRoot: options.baseline }
            : {}),
          scenarios: group,
        }).catch((error: unknown): LoopChildResult[] =>
          group.map((scenario) => ({ library, scenario, ok: false, failure: (error as Error).message })),
        );
        const seconds = ((performance.now() - childStarted) / 1000).toFixed(1);
        for (const result of batch) {
          options.log(
            `  round ${round + 1}/${options.rounds} ${result.scenario} ${library}: ${
              result.ok
                ? `${micro(result.microsecondsPerTurn)} µs/turn (${result.timedRuns} runs)`
                : `FAILED ${result.failure}`
            } [process ${seconds} s]`,
          );
          results.push(result);
        }
      }
    }
    rounds.push(results);
  }
  const failures: string[] = [];
  const medians: Record<string, Record<string, number | undefined>> = {};
  for (const metric of metrics) {
    const row: Record<string, number | undefined> = {};
    for (const library of libraries) {
      const results = rounds
        .flat()
        .filter((result) => result.library === library && result.scenario === metric.scenario);
      const failed = results.find((result) => !result.ok);
      if (failed !== undefined) {
        const message = `${library} ${metric.scenario}: ${failed.failure}`;
        if (!failures.includes(message)) failures.push(message);
        row[library] = undefined;
        continue;
      }
      const values = results.map(metric.value).filter((value): value is number => value !== undefined);
      row[library] = values.length === 0 ? undefined : median(values);
    }
    medians[metric.label] = row;
  }
  return { rounds, medians, failures, markdown: loopMarkdown(libraries, medians, failures) };
}

const peers = ['ai', '@openai/agents', 'openai runTools'];

function loopMarkdown(
  libraries: readonly string[],
  medians: Record<string, Record<string, number | undefined>>,
  failures: readonly string[],
): string {
  const others = libraries.filter((library) => library !== 'ours');
  const absolute = markdownTable(
    ['metric (median over rounds)', ...libraries],
    metrics.map((metric) => [
      metric.label,
      ...libraries.map((library) => metric.format(medians[metric.label]?.[library])),
    ]),
  );
  const ratios = markdownTable(
    ['ours / peer', ...others],
    metrics.map((metric) => [
      metric.label,
      ...others.map((library) =>
        formatRatio(medians[metric.label]?.['ours'], medians[metric.label]?.[library]),
      ),
    ]),
  );
  const get = (label: string, library: string): number | undefined => medians[label]?.[library];
  const fastestPeer = (label: string): number | undefined => {
    const values = peers
      .map((peer) => get(label, peer))
      .filter((value): value is number => value !== undefined);
    return values.length === 0 ? undefined : Math.min(...values);
  };
  const target = (met: boolean | undefined): string => (met === undefined ? 'n/a' : met ? 'met' : 'MISSED');
  // The budget: at most 0.1x the fastest peer, and at most 1.3x the baseline (the main the
  // simplification started from) when one is measured.
  const check = (label: string): string => {
    const ours = get(label, 'ours');
    const fastest = fastestPeer(label);
    return `${label}: ours ${micro(ours)} vs fastest peer ${micro(fastest)} x 0.1 = ${micro(fastest === undefined ? undefined : fastest / 10)}: ${target(
      ours === undefined || fastest === undefined ? undefined : ours <= fastest / 10,
    )}`;
  };
  const checkBaseline = (label: string): string => {
    const ours = get(label, 'ours');
    const before = get(label, baselineLibrary);
    return `${label}: ours ${micro(ours)} vs baseline ${micro(before)}, ${formatRatio(ours, before)} (at most 1.30x): ${target(
      ours === undefined || before === undefined ? undefined : ours <= 1.3 * before,
    )}`;
  };
  const s3Ratio = get('S3 late/early turn cost', 'ours');
  const s1Allocation = get('S1 allocated/run', 'ours');
  const growth = (library: string): string => {
    const long = get('S3 (200 turns) µs/turn', library);
    const short = get('S3 (50 turns) µs/turn', library);
    return `${library} ${long === undefined || short === undefined ? 'n/a' : `${(long / short).toFixed(2)}x`}`;
  };
  const targets = [
    `- ${check('S1 µs/turn')}`,
    `- ${check('S3 (200 turns) µs/turn')}`,
    ...(libraries.includes(baselineLibrary)
      ? [`- ${checkBaseline('S1 µs/turn')}`, `- ${checkBaseline('S3 (200 turns) µs/turn')}`]
      : []),
    `- S3 late/early turn cost at most 1.5x: ours ${times(s3Ratio)}: ${target(s3Ratio === undefined ? undefined : s3Ratio <= 1.5)}`,
    `- S1 allocation under 1 MB: ours ${formatBytes(s1Allocation)}: ${target(s1Allocation === undefined ? undefined : s1Allocation < 1024 * 1024)}`,
    `- Growth, S3 µs/turn at 200 turns over 50 turns: ${libraries.map(growth).join(', ')}`,
  ];
  return [
    '### Loop overhead: medians',
    '',
    absolute,
    '',
    '### Loop overhead: ratios (ours / peer; below 1 is better for us)',
    '',
    ratios,
    '',
    '### Targets',
    '',
    ...targets,
    ...(failures.length === 0
      ? []
      : [
          '',
          '### Libraries that got no number (failed verification)',
          '',
          ...failures.map((failure) => `- ${failure}`),
        ]),
  ].join('\n');
}
