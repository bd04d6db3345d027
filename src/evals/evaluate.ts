import type { EvalCase, ScoredCase, TaskContext, TaskResult } from './eval-case.js';
import { evalReportVersion } from './eval-report.js';
import type { EvalCaseResult, EvalReport, EvalScore } from './eval-report.js';
import type { Scorer } from './scorer.js';
import { applyScorers, defaultThreshold, messageOf } from './apply-scorers.js';
import { readTaskResult } from './task-output.js';
import { summarize } from './summarize.js';
import { validateEvaluateOptions } from './validate-evaluate-options.js';

/** Where an evaluation stands, after each case ends. */
export interface EvalProgress {
  /** Cases ended so far. */
  readonly done: number;
  readonly total: number;
  /** The case that just ended. */
  readonly result: EvalCaseResult;
}

/** Options of {@link evaluate}. */
export interface EvaluateOptions<Input = unknown, Expected = unknown> {
  /** The cases to run. */
  readonly dataset: readonly EvalCase<Input, Expected>[];
  /** Runs one case: any function that runs an agent and returns its `RunResult` (or the answer). */
  readonly task: (input: Input, context: TaskContext<Input, Expected>) => TaskResult | Promise<TaskResult>;
  /** The scorers every case that completes is scored by. */
  readonly scorers: readonly Scorer[];
  /** Cases running at once. @default 4 */
  readonly concurrency?: number;
  /** Stops the evaluation: cases not started are reported `'not_run'`; running tasks receive it. */
  readonly signal?: AbortSignal;
  /** The evaluation's name, kept in the report. */
  readonly name?: string;
  /** Called after each case ends, in the order they end. */
  readonly onProgress?: (progress: EvalProgress) => void;
  /** The clock, in milliseconds since the epoch. @default `performance.timeOrigin + performance.now()` */
  readonly now?: () => number;
}

/**
 * Runs each case of a dataset through a task, at most `concurrency` at once, scores what it
 * returned, and sums it up. A task that throws is a failed case (every scorer scores 0), not a
 * failed evaluation; an aborted evaluation returns the report so far, with `aborted: true`.
 *
 * @throws InvalidArgumentError for a bad option: two cases or two scorers with the same name, a
 *   threshold outside [0, 1], a concurrency that is not a positive integer.
 * @example
 * const report = await evaluate({
 *   dataset: [{ input: 'Capital of France?', expected: { answer: 'Paris.' } }],
 *   task: (question, { signal }) => orchestrator.run([{ role: 'user', content: question }], undefined, { signal }),
 *   scorers: [answerEquals(), maxTokens(2_000)],
 * });
 */
export async function evaluate<Input, Expected>(
  options: EvaluateOptions<Input, Expected>,
): Promise<EvalReport> {
  const ids = validateEvaluateOptions(options);
  const { dataset, task, scorers, onProgress } = options;
  const signal = options.signal ?? new AbortController().signal;
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const startedAt = now();
  const results: (EvalCaseResult | undefined)[] = dataset.map(() => undefined);
  let next = 0;
  let done = 0;

  const runCase = async (index: number): Promise<EvalCaseResult> => {
    const evalCase = dataset[index]!;
    const id = ids[index]!;
    const heading = {
      id,
      input: evalCase.input,
      ...(evalCase.expected === undefined ? {} : { expected: evalCase.expected }),
      tags: evalCase.tags ?? [],
    };
    const caseStart = now();
    try {
      const output = readTaskResult(await task(evalCase.input, { signal, case: evalCase, index }), id);
      const durationMs = now() - caseStart;
      const scoredCase: ScoredCase = { ...heading, expected: evalCase.expected, ...output, durationMs };
      const scores = await applyScorers(scorers, scoredCase, signal);
      const { messages: _messages, ...kept } = output;
      return {
        ...heading,
        status: 'completed',
        passed: Object.values(scores).every((score) => score.passed),
        ...kept,
        durationMs,
        scores,
      };
    } catch (error) {
      const durationMs = now() - caseStart;
      const thrown = { name: error instanceof Error ? error.name : 'Error', message: messageOf(error) };
      const aborted = signal.aborted;
      const reason = `the task threw ${thrown.name}: ${thrown.message}`;
      const zero: EvalScore = { score: 0, reason, passed: false };
      return {
        ...heading,
        status: aborted ? 'aborted' : 'errored',
        passed: false,
        content: '',
        toolCalls: [],
        traces: [],
        durationMs,
        error: thrown,
        scores: aborted ? {} : Object.fromEntries(scorers.map((scorer) => [scorer.name, zero])),
      };
    }
  };

  // A pool of workers taking the next case: the whole limiter the evaluation needs.
  const worker = async (): Promise<void> => {
    while (next < dataset.length && !signal.aborted) {
      const index = next++;
      const result = await runCase(index);
      results[index] = result;
      done += 1;
      onProgress?.({ done, total: dataset.length, result });
    }
  };
  const concurrency = Math.min(options.concurrency ?? 4, dataset.length);
  await Promise.all(Array.from({ length: concurrency }, worker));

  const cases = results.map(
    (result, index): EvalCaseResult =>
      result ?? {
        id: ids[index]!,
        input: dataset[index]!.input,
        ...(dataset[index]!.expected === undefined ? {} : { expected: dataset[index]!.expected }),
        tags: dataset[index]!.tags ?? [],
        status: 'not_run',
        passed: false,
        content: '',
        toolCalls: [],
        traces: [],
        durationMs: 0,
        scores: {},
      },
  );
  return {
    version: evalReportVersion,
    ...(options.name === undefined ? {} : { name: options.name }),
    startedAt: new Date(startedAt).toISOString(),
    durationMs: now() - startedAt,
    aborted: cases.some((result) => result.status === 'not_run' || result.status === 'aborted'),
    cases,
    summary: summarize(
      cases,
      scorers.map((scorer) => ({ name: scorer.name, threshold: scorer.threshold ?? defaultThreshold })),
    ),
  };
}
