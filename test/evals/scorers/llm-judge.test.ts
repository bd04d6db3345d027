import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/index.js';
import { evaluate, llmJudge } from '../../../src/evals.js';
import { ScriptedAdapter } from '../../../src/testing/index.js';

const verdict = (score: number, reason: string) =>
  ScriptedAdapter.toolCalls([['verdict', { score, reason }, 'call_verdict']]);

describe('llmJudge', () => {
  it('asks the adapter for a verdict on the answer with the rubric, and passes at 0.5 by default', async () => {
    const judge = new ScriptedAdapter([
      verdict(0.8, 'Names the capital.'),
      verdict(0.2, 'Names a city, not the capital.'),
    ]);
    const report = await evaluate({
      dataset: [
        { id: 'right', input: 'Capital of France?', expected: 'Paris' },
        { id: 'wrong', input: 'Capital of France?', expected: 'Paris' },
      ],
      task: (_input, { index }) => (index === 0 ? 'Paris.' : 'Lyon.'),
      scorers: [llmJudge({ adapter: judge, rubric: 'Names the capital and nothing else.' })],
      concurrency: 1,
    });
    expect(report.cases.map((result) => result.scores['llm_judge'])).toEqual([
      { score: 0.8, reason: 'Names the capital.', passed: true },
      { score: 0.2, reason: 'Names a city, not the capital.', passed: false },
    ]);
    const asked = judge.calls[0]!.messages.at(-1)!;
    expect(asked).toEqual({
      role: 'user',
      content:
        'Rubric:\nNames the capital and nothing else.\n\nTask input:\nCapital of France?\n\nExpected:\nParis\n\nAnswer:\nParis.',
    });
    expect(judge.calls[0]!.tools.map((tool) => tool.function.name)).toEqual(['verdict']);
  });

  it('fails the score, naming the scorer, when the judge gives no valid verdict', async () => {
    // A score out of range, then again after the repair call.
    const judge = new ScriptedAdapter([verdict(7, 'Great.'), verdict(7, 'Great.')]);
    const report = await evaluate({
      dataset: [{ input: 'q' }],
      task: () => 'a',
      scorers: [llmJudge({ adapter: judge, rubric: 'Is right.', name: 'judge' })],
    });
    expect(report.cases[0]!.scores['judge']).toMatchObject({
      score: 0,
      passed: false,
      scorerFailed: true,
      reason: expect.stringMatching(/^scorer "judge" threw: /),
    });
  });

  it('refuses an empty rubric', () => {
    expect(() => llmJudge({ adapter: new ScriptedAdapter([]), rubric: ' ' })).toThrow(InvalidArgumentError);
  });
});
