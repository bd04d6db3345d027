import type { ModelAdapter } from '../../model/model-adapter.js';
import type { Scorer } from '../scorer.js';
import { ToolOrchestrator } from '../../orchestrator/tool-orchestrator.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';

/** Options of {@link llmJudge}. */
export interface LlmJudgeOptions {
  /** The judge's model: any adapter. */
  readonly adapter: ModelAdapter;
  /** What a good answer is, e.g. `'Names the capital and nothing else.'` */
  readonly rubric: string;
  /** @default 'llm_judge' */
  readonly name?: string;
  /** The lowest score that passes. @default 0.5 */
  readonly threshold?: number;
}

/** The verdict the judge must give, as JSON Schema (the core validates it and asks once for a repair). */
const verdictSchema = {
  type: 'object',
  properties: {
    score: { type: 'number', minimum: 0, maximum: 1, description: '0: fails the rubric; 1: meets it fully' },
    reason: { type: 'string', description: 'Why, in a sentence or two' },
  },
  required: ['score', 'reason'],
  additionalProperties: false,
} as const;

const instructions =
  "You grade an AI assistant's answer against a rubric. Read the task, the expected values if any, and the answer; then give a score from 0 (fails the rubric) to 1 (meets it fully) and a short reason.";

/**
 * Asks a model to grade the final answer against a rubric: one run of `adapter` with the typed
 * output `{ score, reason }`, given the case's input, expected values and answer. The judge's own
 * failure (a provider error, no valid verdict) makes the scorer fail: score 0 with the error as reason.
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  if (typeof options?.rubric !== 'string' || options.rubric.trim() === '') {
    throw new InvalidArgumentError({
      argument: 'rubric',
      value: options?.rubric,
      message: 'must be a non-empty string saying what a good answer is',
    });
  }
  const judge = new ToolOrchestrator(
    options.adapter,
    {},
    { output: { schema: verdictSchema, name: 'verdict' } },
  );
  return {
    name: options.name ?? 'llm_judge',
    threshold: options.threshold ?? 0.5,
    async score({ input, expected, content }, { signal }) {
      const prompt = [
        `Rubric:\n${options.rubric}`,
        `Task input:\n${asText(input)}`,
        ...(expected === undefined ? [] : [`Expected:\n${asText(expected)}`]),
        `Answer:\n${content}`,
      ].join('\n\n');
      const result = await judge.run([{ role: 'user', content: prompt }], instructions, { signal });
      const verdict = result.output as { score: number; reason: string } | undefined;
      if (verdict === undefined)
        throw new Error(`the judge gave no verdict (the run stopped: ${result.stopReason})`);
      return { score: verdict.score, reason: verdict.reason };
    },
  };
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
