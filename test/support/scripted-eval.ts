import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ModelResponse, RunResult, Usage } from '../../src/index.js';
import type { EvalCase, EvalReport, Scorer } from '../../src/evals.js';
import { evaluate } from '../../src/evals.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

/** Usage of one scripted model call. */
export const usage = (totalTokens: number): Usage => ({
  promptTokens: totalTokens - 2,
  completionTokens: 2,
  totalTokens,
  reasoningTokens: 0,
  cachedPromptTokens: 0,
});

export const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up',
  parameters: z.object({ word: z.string(), language: z.string().optional() }),
  execute: ({ word }) => `${word}: a word`,
});

/** Runs the question as a real agent (a ToolOrchestrator with `lookup`) over the given script, priced at $1 per million tokens. */
export function runScripted(
  question: string,
  script: readonly ModelResponse[],
  signal?: AbortSignal,
): Promise<RunResult> {
  const orchestrator = new ToolOrchestrator(
    new ScriptedAdapter(script),
    { lookup },
    {
      budget: { pricing: { inputPerMillion: 1, outputPerMillion: 1 } },
    },
  );
  return orchestrator.run(
    [{ role: 'user', content: question }],
    undefined,
    signal === undefined ? {} : { signal },
  );
}

/**
 * Evaluates one case answered by a scripted agent that looks up each word of `lookups` in turn,
 * then answers `answer`, each call using 10 tokens.
 */
export function evaluateScripted(
  scorers: readonly Scorer[],
  {
    answer,
    lookups = [],
    evalCase = {},
  }: { answer: string; lookups?: readonly unknown[]; evalCase?: Partial<EvalCase> },
): Promise<EvalReport> {
  const script = [
    ...lookups.map((args, index) =>
      ScriptedAdapter.toolCalls([['lookup', args, `call_${index}`]], { usage: usage(10) }),
    ),
    ScriptedAdapter.text(answer, { usage: usage(10) }),
  ];
  return evaluate({
    dataset: [{ id: 'case', input: 'Look the words up.', ...evalCase }],
    task: (input, { signal }) => runScripted(String(input), script, signal),
    scorers,
  });
}

/** The one case's score by the one scorer. */
export function onlyScore(report: EvalReport): { score: number; reason: string; passed: boolean } {
  const scores = Object.values(report.cases[0]!.scores);
  if (scores.length !== 1) throw new Error(`expected one score, got ${scores.length}`);
  return scores[0]!;
}
