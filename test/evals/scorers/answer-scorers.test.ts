import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidArgumentError } from '../../../src/index.js';
import { answerEquals, answerMatches, outputSatisfies } from '../../../src/evals.js';
import { evaluateScripted, onlyScore } from '../../support/scripted-eval.js';

describe('answerEquals', () => {
  it("passes when the answer equals the case's expected.answer, trimmed", async () => {
    const report = await evaluateScripted([answerEquals()], {
      answer: ' Paris. \n',
      evalCase: { expected: { answer: 'Paris.' } },
    });
    expect(onlyScore(report)).toEqual({
      score: 1,
      reason: 'the answer equals the expected one',
      passed: true,
    });
    expect(report.cases[0]!.passed).toBe(true);
  });

  it('fails on another answer, naming both', async () => {
    const report = await evaluateScripted([answerEquals()], {
      answer: 'Lyon.',
      evalCase: { expected: 'Paris.' },
    });
    expect(onlyScore(report)).toEqual({ score: 0, reason: 'expected "Paris.", got "Lyon."', passed: false });
    expect(report.cases[0]!.passed).toBe(false);
  });

  it('takes its own expected answer and ignores case when asked', async () => {
    const passing = await evaluateScripted([answerEquals('PARIS.', { ignoreCase: true })], {
      answer: 'paris.',
    });
    expect(onlyScore(passing).score).toBe(1);
    const failing = await evaluateScripted([answerEquals('PARIS.')], { answer: 'paris.' });
    expect(onlyScore(failing).score).toBe(0);
  });

  it('fails a case with no expected answer, saying how to give one', async () => {
    const report = await evaluateScripted([answerEquals()], { answer: 'Paris.' });
    expect(onlyScore(report).reason).toMatch(/no expected answer: give it expected: \{ answer \}/);
  });
});

describe('answerMatches', () => {
  it('passes on a match and fails otherwise; a global flag keeps no state between cases', async () => {
    const pattern = /paris/gi;
    expect(
      onlyScore(await evaluateScripted([answerMatches(pattern)], { answer: 'It is Paris.' })).score,
    ).toBe(1);
    expect(
      onlyScore(await evaluateScripted([answerMatches(pattern)], { answer: 'It is Paris.' })).score,
    ).toBe(1);
    const failing = onlyScore(await evaluateScripted([answerMatches(pattern)], { answer: 'Lyon' }));
    expect(failing).toEqual({ score: 0, reason: 'the answer "Lyon" does not match /paris/i', passed: false });
  });

  it('refuses a pattern that is not a RegExp', () => {
    expect(() => answerMatches('paris' as never)).toThrow(InvalidArgumentError);
  });
});

describe('outputSatisfies', () => {
  const city = z.object({ city: z.string(), population: z.number() });

  it('reads a JSON answer when the run has no typed output', async () => {
    const passing = await evaluateScripted([outputSatisfies(city)], {
      answer: '{"city":"Paris","population":2100000}',
    });
    expect(onlyScore(passing).score).toBe(1);
    const failing = await evaluateScripted([outputSatisfies(city)], { answer: '{"city":"Paris"}' });
    expect(onlyScore(failing)).toMatchObject({
      score: 0,
      reason: expect.stringMatching(/^the output misses the schema: population: /),
    });
  });

  it('takes a JSON Schema, and fails an answer that is not JSON', async () => {
    const schema = { type: 'object', required: ['city'], properties: { city: { type: 'string' } } };
    expect(
      onlyScore(await evaluateScripted([outputSatisfies(schema)], { answer: '{"city":"Paris"}' })).score,
    ).toBe(1);
    const failing = await evaluateScripted([outputSatisfies(schema)], { answer: 'Paris' });
    expect(onlyScore(failing).reason).toBe(
      'the case has no typed output and its answer is not JSON: "Paris"',
    );
  });
});
