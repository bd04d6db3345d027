import { formatNumber, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { runChild } from '../run-child.js';
import type { RunApiChildOptions, RunApiChildResult, RunApiVariantResult } from './run-api-child.js';
import type { ScenarioName } from './scenarios.js';

export interface RunApiSuiteOptions {
  readonly rounds: number;
  readonly child: Omit<RunApiChildOptions, 'scenario'>;
  readonly log: (line: string) => void;
}

export interface RunApiSuiteReport {
  readonly rounds: RunApiChildResult[][];
  readonly markdown: string;
}

const scenarios: readonly { name: ScenarioName; label: string }[] = [
  { name: 'S1', label: 'S1 (49 turns x 3 calls)' },
  { name: 'S3-200', label: 'S3 (200 turns, 2 KB results)' },
];
/** At most this much slower than plain `run()`, measured side by side (issue #11). */
const targetRatio = 1.2;
const times = (value: number | undefined): string => (value === undefined ? 'n/a' : `${value.toFixed(2)}x`);

/** Runs the run API child for S1 and S3, a fresh process per scenario and round, and reports medians over rounds. */
export async function runRunApiSuite(options: RunApiSuiteOptions): Promise<RunApiSuiteReport> {
  const rounds: RunApiChildResult[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const results: RunApiChildResult[] = [];
    for (const { name } of scenarios) {
      const result = await runChild<RunApiChildResult>('run-api-child', {
        ...options.child,
        scenario: name,
      }).catch((error: unknown): RunApiChildResult => ({
        scenario: name,
        ok: false,
        failure: (error as Error).message,
      }));
      options.log(
        `  round ${round + 1}/${options.rounds} ${name}: ${
          result.ok
            ? `${result.cycles} cycles; ${result
                .variants!.map((variant) => `${variant.variant} ${times(variant.ratioToRun)}`)
                .join(', ')}`
            : `FAILED ${result.failure}`
        }`,
      );
      results.push(result);
    }
    rounds.push(results);
  }
  return { rounds, markdown: markdown(rounds) };
}

function markdown(rounds: readonly RunApiChildResult[][]): string {
  const sections: string[] = [
    '### The run API: stream(), the loop guard and budgets against plain run()',
    '',
    'Each variant runs in turn with the others in one process (order rotating each cycle); ratios are',
    'medians over cycles of paired run times, then medians over rounds. "run()" is the default',
    'configuration, loop guard on; "guard off" is `loopGuard: false`, the loop without any new check.',
  ];
  const failures: string[] = [];
  const targets: string[] = [];
  for (const { name, label } of scenarios) {
    const results = rounds.flat().filter((result) => result.scenario === name);
    for (const failed of results.filter((result) => !result.ok)) failures.push(`${name}: ${failed.failure}`);
    const variants = results.find((result) => result.ok)?.variants?.map((variant) => variant.variant) ?? [];
    const over = (variant: string, value: (result: RunApiVariantResult) => number | undefined) => {
      const values = results
        .flatMap((result) => result.variants ?? [])
        .filter((result) => result.variant === variant)
        .map(value)
        .filter((entry): entry is number => entry !== undefined);
      return values.length === 0 ? undefined : median(values);
    };
    const rows = variants.map((variant) => {
      const early = over(variant, (result) => result.earlyTurnMicroseconds);
      const late = over(variant, (result) => result.lateTurnMicroseconds);
      const ratio = over(variant, (result) => result.ratioToRun);
      // A child agent per call is more work (a nested run with two model calls), not a run API option.
      if (
        variant !== 'run() (defaults: loopGuard on)' &&
        variant !== 'run(), loopGuard off' &&
        !variant.includes('child agent') &&
        ratio !== undefined
      ) {
        targets.push(
          `- ${name} ${variant}: ${times(ratio)} of run() (at most ${targetRatio}x): ${ratio <= targetRatio ? 'met' : 'MISSED'}`,
        );
      }
      return [
        variant,
        formatNumber(
          over(variant, (result) => result.microsecondsPerTurn),
          1,
        ),
        times(ratio),
        times(over(variant, (result) => result.ratioToRunWithoutGuard)),
        early === undefined || late === undefined ? '-' : times(late / early),
      ];
    });
    sections.push(
      '',
      `${label}, ${results.filter((result) => result.ok).length} rounds:`,
      '',
      markdownTable(['variant', 'µs/turn', '/ run()', '/ run(), guard off', 'late/early turn cost'], rows),
    );
  }
  sections.push('', '### Run API targets', '', ...targets);
  if (failures.length > 0)
    sections.push('', '### Failures', '', ...failures.map((failure) => `- ${failure}`));
  return sections.join('\n');
}
