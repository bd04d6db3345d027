import type { ScoredCase } from './eval-case.js';

/** A scorer's verdict on one case: a score from 0 to 1 and why. */
export interface Score {
  readonly score: number;
  readonly reason: string;
}

/** What a scorer receives beside the case. */
export interface ScorerContext {
  /** The evaluation's `signal`: pass it to anything slow (a judge's model call). */
  readonly signal: AbortSignal;
}

/**
 * Scores one case from 0 (wrong) to 1 (right), with a reason. A scorer that throws, or returns a
 * score outside [0, 1], scores 0 with the problem as its reason; the evaluation goes on. It sees
 * the case's `input` and `expected` as `unknown`: narrow them to the dataset's types.
 *
 * @example
 * const short: Scorer = {
 *   name: 'short',
 *   score: ({ content }) => ({ score: content.length <= 80 ? 1 : 0, reason: `${content.length} characters` }),
 * };
 */
export interface Scorer {
  /** A name unique among the evaluation's scorers; the report's scores are keyed by it. */
  readonly name: string;
  /** The lowest score that passes. @default 1 */
  readonly threshold?: number;
  score(scoredCase: ScoredCase, context: ScorerContext): Score | Promise<Score>;
}
