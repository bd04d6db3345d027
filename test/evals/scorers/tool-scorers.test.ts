import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/index.js';
import { toolWasCalled, toolWasNotCalled, trajectory } from '../../../src/evals.js';
import { evaluateScripted, onlyScore } from '../../support/scripted-eval.js';

const twoLookups = { answer: 'Done.', lookups: [{ word: 'alpha', language: 'en' }, { word: 'beta' }] };

describe('toolWasCalled', () => {
  it('passes when the tool was called and fails when it was not', async () => {
    expect(onlyScore(await evaluateScripted([toolWasCalled('lookup')], twoLookups))).toEqual({
      score: 1,
      reason: 'lookup was called 2 times',
      passed: true,
    });
    const failing = onlyScore(await evaluateScripted([toolWasCalled('lookup')], { answer: 'Done.' }));
    expect(failing).toEqual({ score: 0, reason: 'lookup was called 0 times', passed: false });
  });

  it('matches arguments partially, or by a predicate', async () => {
    const partial = await evaluateScripted(
      [toolWasCalled('lookup', { arguments: { word: 'alpha' } })],
      twoLookups,
    );
    expect(onlyScore(partial).score).toBe(1);
    const wrong = await evaluateScripted(
      [toolWasCalled('lookup', { arguments: { word: 'gamma' } })],
      twoLookups,
    );
    expect(onlyScore(wrong)).toMatchObject({
      score: 0,
      reason: expect.stringContaining('0 with matching arguments; its arguments: [{"word":"alpha"'),
    });
    const predicate = await evaluateScripted(
      [toolWasCalled('lookup', { arguments: (args) => (args as { word: string }).word.startsWith('b') })],
      twoLookups,
    );
    expect(onlyScore(predicate).score).toBe(1);
  });

  it('counts matching calls with times', async () => {
    expect(onlyScore(await evaluateScripted([toolWasCalled('lookup', { times: 2 })], twoLookups)).score).toBe(
      1,
    );
    expect(onlyScore(await evaluateScripted([toolWasCalled('lookup', { times: 1 })], twoLookups)).score).toBe(
      0,
    );
    expect(() => toolWasCalled('lookup', { times: -1 })).toThrow(InvalidArgumentError);
  });
});

describe('toolWasNotCalled', () => {
  it('passes when the tool was not called and fails when it was', async () => {
    expect(onlyScore(await evaluateScripted([toolWasNotCalled('lookup')], { answer: 'Done.' })).score).toBe(
      1,
    );
    expect(onlyScore(await evaluateScripted([toolWasNotCalled('lookup')], twoLookups))).toEqual({
      score: 0,
      reason: 'lookup was called 2 times',
      passed: false,
    });
  });
});

describe('trajectory', () => {
  const calls = {
    answer: 'Done.',
    lookups: [{ word: 'a' }, { word: 'b' }, { word: 'c' }],
  };
  // The scripted agent calls only `lookup`; the trajectory compares names, so name the expected calls alike.
  it('scores exact order by the positions that agree, over the longer list', async () => {
    expect(
      onlyScore(
        await evaluateScripted([trajectory(['lookup', 'lookup', 'lookup'], { order: 'exact' })], calls),
      ),
    ).toMatchObject({ score: 1, passed: true });
    const shorter = onlyScore(
      await evaluateScripted([trajectory(['lookup', 'lookup'], { order: 'exact' })], calls),
    );
    expect(shorter.score).toBeCloseTo(2 / 3);
    expect(shorter.passed).toBe(false);
    expect(shorter.reason).toBe('expected ["lookup","lookup"] (exact), called ["lookup","lookup","lookup"]');
  });

  it('scores in-order by the longest common subsequence over the expected count, extras allowed', async () => {
    expect(onlyScore(await evaluateScripted([trajectory(['lookup', 'lookup'])], calls)).score).toBe(1);
    const missing = onlyScore(
      await evaluateScripted([trajectory(['lookup', 'search', 'lookup', 'answer'])], calls),
    );
    expect(missing.score).toBe(0.5);
  });

  it('scores a set by the share of expected names called, in any order', async () => {
    expect(onlyScore(await evaluateScripted([trajectory(['lookup'], { order: 'set' })], calls)).score).toBe(
      1,
    );
    expect(
      onlyScore(await evaluateScripted([trajectory(['search', 'lookup'], { order: 'set' })], calls)).score,
    ).toBe(0.5);
    expect(
      onlyScore(await evaluateScripted([trajectory(['search'], { order: 'set' })], { answer: 'Done.' }))
        .score,
    ).toBe(0);
  });

  it('refuses an unknown order', () => {
    expect(() => trajectory(['lookup'], { order: 'sorted' as never })).toThrow(
      /Invalid order \("sorted"\): must be 'exact', 'in-order' or 'set'/,
    );
  });
});
