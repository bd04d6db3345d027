/**
 * `evaluate()` over many scripted cases (in this process): each case a real run (a ToolOrchestrator
 * with one tool, a scripted model that calls it once and answers), scored by five built-in
 * scorers, at concurrency 8. What it measures is the evaluation's own cost over the loop's:
 * the whole wall time, against the target of 1,000 cases under 10 s.
 */
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import type { Usage } from 'tool-orchestrator';
import {
  answerEquals,
  evaluate,
  maxTokens,
  toolWasCalled,
  toolWasNotCalled,
  trajectory,
} from 'tool-orchestrator/evals';
import { ScriptedAdapter } from 'tool-orchestrator/testing';
import { z } from 'zod';
import { formatNumber, markdownTable } from '../format.js';
import { median } from '../measure.js';

export interface EvalsSuiteOptions {
  readonly rounds: number;
  readonly cases: number;
  readonly concurrency: number;
  readonly log: (line: string) => void;
}

/** The target: 1,000 cases at concurrency 8 in under this many seconds. */
const targetSeconds = 10;
const usage: Usage = {
  promptTokens: 90,
  completionTokens: 10,
  totalTokens: 100,
  reasoningTokens: 0,
  cachedPromptTokens: 0,
};
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a word`,
});

async function oneRound(cases: number, concurrency: number): Promise<{ seconds: number; passed: number }> {
  const started = performance.now();
  const report = await evaluate({
    dataset: Array.from({ length: cases }, (_unused, index) => ({
      id: `case-${index}`,
      input: `word${index}`,
      expected: { answer: `word${index} is a word` },
    })),
    task: (word, { signal }) => {
      const model = new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['lookup', { word }]], { usage }),
        ScriptedAdapter.text(`${word} is a word`, { usage }),
      ]);
      return new ToolOrchestrator(model, { lookup }).run(
        [{ role: 'user', content: `Look up ${word}.` }],
        undefined,
        {
          signal,
        },
      );
    },
    scorers: [
      answerEquals(),
      toolWasCalled('lookup', { arguments: (args) => typeof (args as { word?: unknown }).word === 'string' }),
      toolWasNotCalled('search'),
      trajectory(['lookup'], { order: 'exact' }),
      maxTokens(1_000),
    ],
    concurrency,
  });
  return { seconds: (performance.now() - started) / 1000, passed: report.summary.passed };
}

/** Runs the evaluation `rounds` times and reports the median wall time against the target. */
export async function runEvalsSuite(options: EvalsSuiteOptions): Promise<{ markdown: string }> {
  const seconds: number[] = [];
  let passed = 0;
  for (let round = 0; round < options.rounds; round++) {
    const result = await oneRound(options.cases, options.concurrency);
    seconds.push(result.seconds);
    passed = result.passed;
    options.log(
      `  round ${round + 1}/${options.rounds}: ${formatNumber(result.seconds, 2)} s, ${result.passed} passed`,
    );
  }
  const wall = median(seconds);
  const perThousand = (wall * 1000) / options.cases;
  return {
    markdown: [
      '### evaluate()',
      '',
      `${options.cases} scripted cases (a tool call and an answer each, five scorers) at concurrency ${options.concurrency}, median of ${options.rounds} rounds.`,
      '',
      markdownTable(
        ['cases', 'passed', 'wall time', 'per 1,000 cases', `target (< ${targetSeconds} s per 1,000)`],
        [
          [
            String(options.cases),
            String(passed),
            `${formatNumber(wall, 2)} s`,
            `${formatNumber(perThousand, 2)} s`,
            perThousand < targetSeconds ? 'met' : 'MISSED',
          ],
        ],
      ),
    ].join('\n'),
  };
}
