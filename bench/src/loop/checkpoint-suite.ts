import { formatNumber, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { runChild } from '../run-child.js';
import type { CheckpointChildOptions, CheckpointChildResult } from './checkpoint-child.js';

export interface CheckpointSuiteOptions {
  readonly rounds: number;
  readonly child: CheckpointChildOptions;
  readonly log: (line: string) => void;
}

/** The memory store at most this much slower than no store (issue #12). */
const memoryTarget = 1.3;
/** The file store adds less than this per step, at the median (issue #12). */
const fileTargetMs = 1;

/** A median save time, or nothing for the variants whose saves are not timed (no I/O). */
function formatSave(milliseconds: number | undefined): string {
  return milliseconds === undefined || Number.isNaN(milliseconds) ? '' : milliseconds.toFixed(3);
}

/** Runs the checkpoint child once per round, a fresh process each, and reports medians over rounds. */
export async function runCheckpointSuite(options: CheckpointSuiteOptions): Promise<{ markdown: string }> {
  const rounds: CheckpointChildResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const result = await runChild<CheckpointChildResult>('checkpoint-child', options.child).catch(
      (error: unknown): CheckpointChildResult => ({ ok: false, failure: (error as Error).message }),
    );
    options.log(
      `  round ${round + 1}/${options.rounds}: ${
        result.ok
          ? result
              .variants!.map((variant) => `${variant.variant} ${variant.ratioToNoStore.toFixed(2)}x`)
              .join(', ')
          : `FAILED ${result.failure}`
      }`,
    );
    rounds.push(result);
  }
  const ok = rounds.filter((result) => result.ok);
  const names = ok[0]?.variants?.map((variant) => variant.variant) ?? [];
  const over = (
    name: string,
    pick: (variant: NonNullable<CheckpointChildResult['variants']>[number]) => number,
  ) => {
    const values = ok
      .flatMap((result) => result.variants ?? [])
      .filter((variant) => variant.variant === name)
      .map(pick);
    return values.length === 0 ? undefined : median(values);
  };
  const rows = names.map((name) => [
    name,
    formatNumber(
      over(name, (variant) => variant.microsecondsPerTurn),
      1,
    ),
    `${(over(name, (variant) => variant.ratioToNoStore) ?? Number.NaN).toFixed(2)}x`,
    (over(name, (variant) => variant.millisecondsPerStep) ?? Number.NaN).toFixed(3),
    formatSave(over(name, (variant) => variant.medianSaveMs ?? Number.NaN)),
  ]);
  const memory = over('MemoryCheckpointStore', (variant) => variant.ratioToNoStore);
  const file = over('FileCheckpointStore (fsync)', (variant) => variant.medianSaveMs ?? Number.NaN);
  const fileMean = over('FileCheckpointStore (fsync)', (variant) => variant.millisecondsPerStep);
  const floor = over('append + fdatasync (the disk alone)', (variant) => variant.medianSaveMs ?? Number.NaN);
  const skipped = ok.find((result) => result.postgresSkipped !== undefined)?.postgresSkipped;
  const lines = [
    '### Durable runs: the checkpoint stores against no store (S3, 200 turns, 400 saves per run)',
    '',
    'The variants alternate run by run in one process (order rotating each cycle); ratios and ms per step',
    'are medians over cycles of paired run times, then medians over rounds. "median save" is the median over',
    'every timed save of the time save() took to resolve, then the median over rounds.',
    '',
    markdownTable(['variant', 'µs/turn', '/ no store', 'ms per step (extra)', 'median save (ms)'], rows),
    '',
    `- MemoryCheckpointStore: ${memory === undefined ? 'n/a' : `${memory.toFixed(2)}x`} of no store (at most ${memoryTarget}x): ${memory !== undefined && memory <= memoryTarget ? 'met' : 'MISSED'}`,
    `- FileCheckpointStore (fsync): ${file === undefined ? 'n/a' : `${file.toFixed(3)} ms`} per save at the median (under ${fileTargetMs} ms): ${file !== undefined && file < fileTargetMs ? 'met' : 'MISSED'}; ` +
      `${fileMean === undefined ? 'n/a' : `${fileMean.toFixed(3)} ms`} per step on average (the disk's slow flushes included); ` +
      `a bare append + fdatasync on this disk: ${floor === undefined ? 'n/a' : `${floor.toFixed(3)} ms`} at the median`,
  ];
  if (skipped !== undefined) lines.push(`- PostgresCheckpointStore not measured: ${skipped}`);
  const redisSkipped = ok.find((result) => result.redisSkipped !== undefined)?.redisSkipped;
  if (redisSkipped !== undefined) lines.push(`- RedisCheckpointStore not measured: ${redisSkipped}`);
  for (const failed of rounds.filter((result) => !result.ok)) lines.push(`- failure: ${failed.failure}`);
  return { markdown: lines.join('\n') };
}
