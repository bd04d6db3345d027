import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { answerEquals, evaluate, toolWasCalled } from '../../src/evals.js';
import type { EvalProgress, Scorer } from '../../src/evals.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { runScripted, usage } from '../support/scripted-eval.js';
import { until } from '../support/until.js';

/** A promise with its resolve function, for tasks a test lets finish when it wants. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('evaluate', () => {
  it("collects each case's answer, tool calls, traces, usage, cost and scores, and sums them up", async () => {
    const report = await evaluate({
      name: 'capitals',
      dataset: [
        { id: 'france', input: 'France', expected: { answer: 'Paris' }, tags: ['europe'] },
        { id: 'peru', input: 'Peru', expected: { answer: 'Lima' } },
      ],
      task: (country, { signal }) =>
        runScripted(
          `Capital of ${country}?`,
          [
            ScriptedAdapter.toolCalls([['lookup', { word: country }, 'call_1']], { usage: usage(10) }),
            ScriptedAdapter.text('Paris', { usage: usage(10) }),
          ],
          signal,
        ),
      scorers: [answerEquals(), toolWasCalled('lookup')],
    });
    expect(report).toMatchObject({ version: 1, name: 'capitals', aborted: false });
    const [france, peru] = report.cases;
    expect(france).toMatchObject({
      id: 'france',
      input: 'France',
      expected: { answer: 'Paris' },
      tags: ['europe'],
      status: 'completed',
      passed: true,
      content: 'Paris',
      toolCalls: [{ name: 'lookup', arguments: { word: 'France' } }],
      usage: { totalTokens: 20 },
      costUsd: 0.00002,
    });
    expect(france!.traces.map((event) => event.type)).toContain('tool_result');
    expect(france).not.toHaveProperty('messages');
    expect(peru).toMatchObject({ id: 'peru', tags: [], passed: false });
    expect(peru!.scores).toEqual({
      answer_equals: { score: 0, reason: 'expected "Lima", got "Paris"', passed: false },
      'tool_was_called:lookup': { score: 1, reason: 'lookup was called 1 times', passed: true },
    });
    expect(report.summary).toMatchObject({
      cases: 2,
      completed: 2,
      errored: 0,
      notRun: 0,
      passed: 1,
      passRate: 0.5,
      meanScore: 0.75,
      usage: { totalTokens: 40 },
      costUsd: 0.00004,
      scorers: [
        {
          name: 'answer_equals',
          threshold: 1,
          mean: 0.5,
          passRate: 0.5,
          passed: 1,
          failed: 1,
          scorerFailures: 0,
        },
        {
          name: 'tool_was_called:lookup',
          threshold: 1,
          mean: 1,
          passRate: 1,
          passed: 2,
          failed: 0,
          scorerFailures: 0,
        },
      ],
    });
  });

  it('takes a string as the answer, gives cases without an id their index, and passes at a scorer threshold', async () => {
    const half: Scorer = { name: 'half', threshold: 0.5, score: () => ({ score: 0.5, reason: 'halfway' }) };
    const report = await evaluate({
      dataset: [{ input: 1 }, { input: 2 }],
      task: (input) => `answer ${input}`,
      scorers: [half],
    });
    expect(report.cases.map((result) => [result.id, result.content, result.scores['half']!.passed])).toEqual([
      ['0', 'answer 1', true],
      ['1', 'answer 2', true],
    ]);
  });

  it('makes a task that throws a failed case with 0 on every scorer, and goes on', async () => {
    const report = await evaluate({
      dataset: [
        { id: 'boom', input: 'a' },
        { id: 'fine', input: 'b' },
      ],
      task: (input) => {
        if (input === 'a') throw new RangeError('no model today');
        return 'b';
      },
      scorers: [answerEquals('b')],
    });
    expect(report.cases[0]).toMatchObject({
      status: 'errored',
      passed: false,
      error: { name: 'RangeError', message: 'no model today' },
      scores: {
        answer_equals: { score: 0, reason: 'the task threw RangeError: no model today', passed: false },
      },
    });
    expect(report.cases[1]).toMatchObject({ status: 'completed', passed: true });
    expect(report.summary).toMatchObject({ errored: 1, completed: 1, passRate: 0.5 });
  });

  it('makes a task that returns neither a string nor an object an errored case naming it', async () => {
    const report = await evaluate({ dataset: [{ id: 'x', input: 0 }], task: () => 42 as never, scorers: [] });
    expect(report.cases[0]!.error?.message).toMatch(
      /Invalid the task's result for case "x" \(42\): return a RunResult/,
    );
  });

  it('scores 0 for a scorer that throws or returns a score outside [0, 1] or NaN, naming the scorer', async () => {
    const throwing: Scorer = {
      name: 'throwing',
      score: () => {
        throw new Error('bad scorer');
      },
    };
    const tooHigh: Scorer = { name: 'too_high', score: () => ({ score: 1.5, reason: '' }) };
    const notANumber: Scorer = { name: 'nan', score: async () => ({ score: Number.NaN, reason: '' }) };
    const fine: Scorer = { name: 'fine', score: () => ({ score: 1, reason: 'ok' }) };
    const report = await evaluate({
      dataset: [{ input: 'q' }],
      task: () => 'a',
      scorers: [throwing, tooHigh, notANumber, fine],
    });
    expect(report.cases[0]!.scores).toEqual({
      throwing: {
        score: 0,
        reason: 'scorer "throwing" threw: bad scorer',
        passed: false,
        scorerFailed: true,
      },
      too_high: {
        score: 0,
        reason:
          'scorer "too_high" returned the score 1.5: a scorer must return { score, reason } with a score from 0 to 1',
        passed: false,
        scorerFailed: true,
      },
      nan: {
        score: 0,
        reason:
          'scorer "nan" returned the score NaN: a scorer must return { score, reason } with a score from 0 to 1',
        passed: false,
        scorerFailed: true,
      },
      fine: { score: 1, reason: 'ok', passed: true },
    });
    expect(report.summary.scorers.map((scorer) => scorer.scorerFailures)).toEqual([1, 1, 1, 0]);
  });

  it('never runs more than `concurrency` tasks at once, and runs every case', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const gates = Array.from({ length: 7 }, deferred);
    const progress: EvalProgress[] = [];
    const evaluation = evaluate({
      dataset: gates.map((_gate, index) => ({ input: index })),
      task: async (index: number) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await gates[index]!.promise;
        running -= 1;
        return String(index);
      },
      scorers: [],
      concurrency: 3,
      onProgress: (step) => progress.push(step),
    });
    // Cases start in order; let them finish one by one, each time once the pool is full again.
    for (let finished = 0; finished < gates.length; finished += 1) {
      await until(() => running === Math.min(3, gates.length - finished));
      gates[finished]!.resolve();
    }
    const report = await evaluation;
    expect(mostAtOnce).toBe(3);
    expect(report.cases.map((result) => result.content)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(progress.map((step) => step.done)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(progress.every((step) => step.total === 7)).toBe(true);
  });

  it('on abort, reports the cases not started as not run and the running ones as aborted', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const evaluation = evaluate({
      dataset: Array.from({ length: 5 }, (_unused, index) => ({ id: `c${index}`, input: index })),
      task: async (index: number, { signal }) => {
        started.push(index);
        if (index === 0) return 'quick';
        await new Promise((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason as Error);
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        });
        return 'never';
      },
      scorers: [answerEquals('quick')],
      concurrency: 2,
      signal: controller.signal,
    });
    await until(() => started.length === 2);
    controller.abort();
    const report = await evaluation;
    expect(started).toEqual([0, 1]);
    expect(report.aborted).toBe(true);
    expect(report.cases.map((result) => [result.id, result.status])).toEqual([
      ['c0', 'completed'],
      ['c1', 'aborted'],
      ['c2', 'not_run'],
      ['c3', 'not_run'],
      ['c4', 'not_run'],
    ]);
    expect(report.cases[1]!.scores).toEqual({});
    expect(report.summary).toMatchObject({ completed: 1, aborted: 1, notRun: 3, passRate: 1 });
  });

  it('refuses bad options, naming them', async () => {
    const scorer: Scorer = { name: 'same', score: () => ({ score: 1, reason: '' }) };
    const task = (): string => 'a';
    await expect(evaluate({ dataset: [{ input: 1 }], task, scorers: [scorer, scorer] })).rejects.toThrow(
      /Invalid scorers\[1\]\.name \("same"\): another scorer has this name/,
    );
    await expect(
      evaluate({
        dataset: [
          { id: 'a', input: 1 },
          { id: 'a', input: 2 },
        ],
        task,
        scorers: [],
      }),
    ).rejects.toThrow(/Invalid dataset\[1\]\.id \("a"\): another case has this id/);
    await expect(evaluate({ dataset: [], task, scorers: [], concurrency: 0 })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(evaluate({ dataset: [], task, scorers: [{ ...scorer, threshold: 2 }] })).rejects.toThrow(
      /Invalid scorers\[0\]\.threshold \(2\)/,
    );
    await expect(evaluate({ dataset: [{ expected: 1 } as never], task, scorers: [] })).rejects.toThrow(
      /Invalid dataset\[0\].*must be a case: \{ input/,
    );
  });
});
