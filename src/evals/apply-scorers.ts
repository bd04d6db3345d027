import type { ScoredCase } from './eval-case.js';
import type { EvalScore } from './eval-report.js';
import type { Scorer } from './scorer.js';

/** The threshold a scorer passes at when it names none. */
export const defaultThreshold = 1;

/** Runs every scorer on a case at once; a scorer that fails scores 0 with the problem as its reason. */
export async function applyScorers(
  scorers: readonly Scorer[],
  scoredCase: ScoredCase,
  signal: AbortSignal,
): Promise<Record<string, EvalScore>> {
  const verdicts = await Promise.all(scorers.map((scorer) => applyScorer(scorer, scoredCase, signal)));
  return Object.fromEntries(scorers.map((scorer, index) => [scorer.name, verdicts[index]!]));
}

async function applyScorer(scorer: Scorer, scoredCase: ScoredCase, signal: AbortSignal): Promise<EvalScore> {
  const threshold = scorer.threshold ?? defaultThreshold;
  let verdict: unknown;
  try {
    verdict = await scorer.score(scoredCase, { signal });
  } catch (error) {
    return failed(`scorer "${scorer.name}" threw: ${messageOf(error)}`);
  }
  const { score, reason } = (typeof verdict === 'object' && verdict !== null ? verdict : {}) as {
    score?: unknown;
    reason?: unknown;
  };
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
    return failed(
      `scorer "${scorer.name}" returned the score ${typeof score === 'number' ? String(score) : typeof score}: a scorer must return { score, reason } with a score from 0 to 1`,
    );
  }
  return { score, reason: typeof reason === 'string' ? reason : '', passed: score >= threshold };
}

function failed(reason: string): EvalScore {
  return { score: 0, reason, passed: false, scorerFailed: true };
}

/** An error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
