import type { Scorer } from '../scorer.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';

/** Scores 1 when the run cost at most `usd`, else 0; a case with no cost (a run without `budget.pricing`) scores 0. */
export function maxCost(usd: number, options: { readonly name?: string } = {}): Scorer {
  checkCeiling('usd', usd);
  return {
    name: options.name ?? 'max_cost',
    score: ({ costUsd }) =>
      costUsd === undefined
        ? {
            score: 0,
            reason: 'the task reported no cost: give the run budget: { pricing } and return its RunResult',
          }
        : { score: costUsd <= usd ? 1 : 0, reason: `cost $${costUsd} against a ceiling of $${usd}` },
  };
}

/** Scores 1 when the run used at most `tokens` tokens in all (`usage.totalTokens`), else 0; a case with no usage scores 0. */
export function maxTokens(tokens: number, options: { readonly name?: string } = {}): Scorer {
  checkCeiling('tokens', tokens);
  return {
    name: options.name ?? 'max_tokens',
    score: ({ usage }) =>
      usage === undefined
        ? { score: 0, reason: 'the task reported no usage: return the RunResult, or an object with usage' }
        : {
            score: usage.totalTokens <= tokens ? 1 : 0,
            reason: `${usage.totalTokens} tokens against a ceiling of ${tokens}`,
          },
  };
}

/** Scores 1 when the task took at most `milliseconds`, else 0. */
export function maxLatency(milliseconds: number, options: { readonly name?: string } = {}): Scorer {
  checkCeiling('milliseconds', milliseconds);
  return {
    name: options.name ?? 'max_latency',
    score: ({ durationMs }) => ({
      score: durationMs <= milliseconds ? 1 : 0,
      reason: `${Math.round(durationMs)} ms against a ceiling of ${milliseconds} ms`,
    }),
  };
}

function checkCeiling(argument: string, value: number): void {
  if (typeof value !== 'number' || !(value >= 0) || value === Infinity) {
    throw new InvalidArgumentError({ argument, value, message: 'must be a finite number, 0 or more' });
  }
}
