import { describe, expectTypeOf, it } from 'vitest';
import { answerEquals, evaluate } from '../../src/evals.js';
import type { EvalCase, EvalReport, Scorer, TaskContext } from '../../src/evals.js';

describe('evaluate types', () => {
  it("gives the task the dataset's input and expected types, whatever the scorers", () => {
    const report = evaluate({
      dataset: [{ input: { country: 'France' }, expected: { answer: 'Paris' } }],
      task: (input, context) => {
        expectTypeOf(input).toEqualTypeOf<{ country: string }>();
        expectTypeOf(context).toEqualTypeOf<TaskContext<{ country: string }, { answer: string }>>();
        return input.country;
      },
      scorers: [answerEquals()],
    });
    expectTypeOf(report).toEqualTypeOf<Promise<EvalReport>>();
  });

  it('refuses a task whose input type is not the dataset’s', () => {
    const dataset: EvalCase<number>[] = [{ input: 1 }];
    // @ts-expect-error the task takes a string, the cases hold numbers
    void evaluate({ dataset, task: (input: string) => input, scorers: [] });
  });

  it('takes a custom scorer as an object literal', () => {
    expectTypeOf({ name: 'n', score: () => ({ score: 1, reason: '' }) }).toExtend<Scorer>();
  });
});
