import { describe, expect, it } from 'vitest';
import { answerEquals, compareReports, evaluate } from '../../src/evals.js';
import type { EvalReport, Scorer } from '../../src/evals.js';

/** A report over cases answered from `answers` (a missing id is a case not in the dataset), scored by answerEquals and a length scorer. */
function reportOf(answers: Record<string, string | Error>): Promise<EvalReport> {
  const short: Scorer = {
    name: 'short',
    score: ({ content }) => ({
      score: content.length <= 5 ? 1 : 0.5,
      reason: `${content.length} characters`,
    }),
  };
  return evaluate({
    dataset: Object.keys(answers).map((id) => ({ id, input: id, expected: 'yes' })),
    task: (id) => {
      const answer = answers[id as string]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    scorers: [answerEquals(), short],
  });
}

describe('compareReports', () => {
  it('says per scorer and per case what got better, worse or stayed, and which cases are new or missing', async () => {
    const baseline = await reportOf({ a: 'yes', b: 'no', c: 'yes', gone: 'yes' });
    const current = await reportOf({ a: 'yes', b: 'yes', c: 'yes, surely', added: 'yes' });
    const comparison = compareReports(baseline, current);
    expect(comparison.scorers).toEqual([
      { name: 'answer_equals', baselineMean: 0.75, currentMean: 0.75, delta: 0, change: 'same' },
      { name: 'short', baselineMean: 1, currentMean: 0.875, delta: -0.125, change: 'worse' },
    ]);
    expect(comparison.cases).toEqual([
      {
        id: 'a',
        deltas: { answer_equals: 0, short: 0 },
        change: 'same',
        passedBefore: true,
        passedNow: true,
      },
      {
        id: 'b',
        deltas: { answer_equals: 1, short: 0 },
        change: 'better',
        passedBefore: false,
        passedNow: true,
      },
      {
        id: 'c',
        deltas: { answer_equals: -1, short: -0.5 },
        change: 'worse',
        passedBefore: true,
        passedNow: false,
      },
    ]);
    expect(comparison.newCases).toEqual(['added']);
    expect(comparison.missingCases).toEqual(['gone']);
    expect(comparison.regressed).toBe(true);
    expect(comparison.regressions).toEqual([
      'scorer short: mean 1 → 0.875 (-0.125), beyond the threshold 0',
      'case c passed and now fails: answer_equals (expected "yes", got "yes, surely"); short (11 characters)',
    ]);
  });

  it('is not regressed when nothing that passed fails and no mean drops beyond the threshold', async () => {
    const baseline = await reportOf({ a: 'yes', b: 'no' });
    const better = await reportOf({ a: 'yes', b: 'yes' });
    expect(compareReports(baseline, better)).toMatchObject({ regressed: false, regressions: [] });
    // b stays failing and gets longer: its length score drops by 0.25 on the mean, within a 0.3 threshold.
    const longer = await reportOf({ a: 'yes', b: 'no, no' });
    expect(compareReports(baseline, longer, { threshold: 0.3 })).toMatchObject({ regressed: false });
    expect(compareReports(baseline, longer, { threshold: 0.2 })).toMatchObject({
      regressed: true,
      regressions: ['scorer short: mean 1 → 0.75 (-0.25), beyond the threshold 0.2'],
    });
  });

  it('counts a case whose task now throws as a regression, saying so', async () => {
    const baseline = await reportOf({ a: 'yes' });
    const current = await reportOf({ a: new Error('model down') });
    expect(compareReports(baseline, current, { threshold: 1 }).regressions).toEqual([
      'case a passed and now fails: the task threw: model down',
    ]);
  });

  it('leaves out cases that did not run in either report, and names scorers only one report has', async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = await evaluate({
      dataset: [{ id: 'a', input: 'a' }],
      task: () => 'yes',
      scorers: [],
      signal: controller.signal,
    });
    const baseline = await reportOf({ a: 'yes' });
    const comparison = compareReports(baseline, aborted);
    expect(comparison.notCompared).toEqual(['a']);
    expect(comparison.cases).toEqual([]);
    expect(comparison.scorers.map((scorer) => [scorer.name, scorer.change])).toEqual([
      ['answer_equals', 'missing'],
      ['short', 'missing'],
    ]);
    expect(compareReports(aborted, baseline).scorers.map((scorer) => scorer.change)).toEqual(['new', 'new']);
  });

  it('refuses a threshold outside [0, 1]', async () => {
    const report = await reportOf({ a: 'yes' });
    expect(() => compareReports(report, report, { threshold: -0.1 })).toThrow(
      /Invalid threshold \(-0.1\): must be a number from 0 to 1/,
    );
  });
});
