import { formatNumber, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { runChild } from '../run-child.js';
import type { ReplayChildOptions, ReplayChildResult } from './replay-child.js';

export interface ReplaySuiteOptions {
  readonly rounds: number;
  readonly child: ReplayChildOptions;
  readonly log: (line: string) => void;
}

const target = 1.5;

/** `ReplayAdapter` per call against `ScriptedAdapter` on the same conversation: a fresh process per round. */
export async function runReplaySuite(options: ReplaySuiteOptions): Promise<{ markdown: string }> {
  const rounds: ReplayChildResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const result = await runChild<ReplayChildResult>('replay-child', options.child).catch(
      (error: unknown): ReplayChildResult => ({ ok: false, failure: (error as Error).message }),
    );
    options.log(
      `  round ${round + 1}/${options.rounds}: ${
        result.ok
          ? result
              .variants!.map(
                (variant) =>
                  `${variant.variant} ${formatNumber(variant.microsecondsPerCall, 1)} µs/call (${variant.ratioToScripted.toFixed(2)}x)`,
              )
              .join('; ')
          : `FAILED ${result.failure}`
      }`,
    );
    rounds.push(result);
  }
  const ok = rounds.filter((round) => round.ok);
  const names = ok[0]?.variants?.map((variant) => variant.variant) ?? [];
  const pick = (name: string, field: 'microsecondsPerCall' | 'ratioToScripted'): number[] =>
    ok.map((round) => round.variants!.find((variant) => variant.variant === name)![field]);
  const table = markdownTable(
    [
      '49 calls of a 3-calls-a-turn conversation',
      'µs/call',
      'ratio to ScriptedAdapter (median of rounds)',
      `target ≤ ${target}x`,
    ],
    names.map((name) => {
      const ratio = median(pick(name, 'ratioToScripted'));
      return [
        name,
        formatNumber(median(pick(name, 'microsecondsPerCall')), 1),
        `${ratio.toFixed(2)}x (${Math.min(...pick(name, 'ratioToScripted')).toFixed(2)}-${Math.max(...pick(name, 'ratioToScripted')).toFixed(2)})`,
        name === 'ScriptedAdapter' ? '' : ratio <= target ? 'met' : 'MISSED',
      ];
    }),
  );
  const failures = rounds.length - ok.length;
  return {
    markdown: [
      '### Replay: answering from a cassette against ScriptedAdapter',
      '',
      table,
      ...(failures === 0 ? [] : ['', `${failures} of ${rounds.length} rounds failed.`]),
    ].join('\n'),
  };
}
