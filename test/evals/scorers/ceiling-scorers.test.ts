import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/index.js';
import { evaluate, maxCost, maxLatency, maxTokens } from '../../../src/evals.js';
import { evaluateScripted, onlyScore } from '../../support/scripted-eval.js';

// Two model calls of 10 tokens each, at $1 per million tokens: 20 tokens, $0.00002.
const oneLookup = { answer: 'Done.', lookups: [{ word: 'alpha' }] };

describe('ceilings', () => {
  it('maxTokens passes at or under the ceiling and fails over it', async () => {
    expect(onlyScore(await evaluateScripted([maxTokens(20)], oneLookup))).toEqual({
      score: 1,
      reason: '20 tokens against a ceiling of 20',
      passed: true,
    });
    expect(onlyScore(await evaluateScripted([maxTokens(19)], oneLookup)).score).toBe(0);
  });

  it("maxCost reads the run's cost, and fails a run with no pricing", async () => {
    expect(onlyScore(await evaluateScripted([maxCost(0.00002)], oneLookup)).score).toBe(1);
    expect(onlyScore(await evaluateScripted([maxCost(0.00001)], oneLookup)).score).toBe(0);
    const unpriced = await evaluate({
      dataset: [{ input: 'q' }],
      task: () => 'an answer',
      scorers: [maxCost(1)],
    });
    expect(onlyScore(unpriced).reason).toMatch(/reported no cost: give the run budget: \{ pricing \}/);
  });

  it("maxLatency reads the task's duration by the evaluation's clock", async () => {
    let clock = 0;
    const report = await evaluate({
      dataset: [
        { id: 'fast', input: 5 },
        { id: 'slow', input: 50 },
      ],
      task: (input: number) => {
        clock += input;
        return 'done';
      },
      scorers: [maxLatency(10)],
      concurrency: 1,
      now: () => clock,
    });
    expect(
      report.cases.map((result) => [result.id, result.durationMs, result.scores['max_latency']!.score]),
    ).toEqual([
      ['fast', 5, 1],
      ['slow', 50, 0],
    ]);
  });

  it('refuses a ceiling that is not a finite number of 0 or more', () => {
    expect(() => maxTokens(-1)).toThrow(InvalidArgumentError);
    expect(() => maxCost(Number.NaN)).toThrow(/Invalid usd \(NaN\)/);
    expect(() => maxLatency(Infinity)).toThrow(InvalidArgumentError);
  });
});
