import type { EvalCaseResult, EvalScorerSummary, EvalSummary } from './eval-report.js';
import { addUsage, emptyUsage } from '../model/usage.js';

/** A scorer's name and threshold, as the summary lists it. */
export interface ScorerHeading {
  readonly name: string;
  readonly threshold: number;
}

/** Sums up cases: counts by status, each scorer's mean and pass rate over the cases scored, usage and cost. */
export function summarize(cases: readonly EvalCaseResult[], scorers: readonly ScorerHeading[]): EvalSummary {
  const scored = cases.filter((result) => result.status === 'completed' || result.status === 'errored');
  const scorerSummaries = scorers.map((scorer): EvalScorerSummary => {
    const scores = scored.flatMap((result) => {
      const score = result.scores[scorer.name];
      return score === undefined ? [] : [score];
    });
    const passed = scores.filter((score) => score.passed).length;
    return {
      name: scorer.name,
      threshold: scorer.threshold,
      mean: mean(scores.map((score) => score.score)),
      passRate: scores.length === 0 ? 0 : passed / scores.length,
      passed,
      failed: scores.length - passed,
      scorerFailures: scores.filter((score) => score.scorerFailed === true).length,
    };
  });
  const costs = cases.flatMap((result) => (result.costUsd === undefined ? [] : [result.costUsd]));
  const passed = cases.filter((result) => result.passed).length;
  return {
    cases: cases.length,
    completed: count(cases, 'completed'),
    errored: count(cases, 'errored'),
    aborted: count(cases, 'aborted'),
    notRun: count(cases, 'not_run'),
    passed,
    passRate: scored.length === 0 ? 0 : passed / scored.length,
    meanScore: mean(scorerSummaries.map((summary) => summary.mean)),
    scorers: scorerSummaries,
    usage: cases.reduce((total, result) => addUsage(total, result.usage), emptyUsage),
    ...(costs.length === 0 ? {} : { costUsd: costs.reduce((total, cost) => total + cost, 0) }),
  };
}

function count(cases: readonly EvalCaseResult[], status: EvalCaseResult['status']): number {
  return cases.filter((result) => result.status === status).length;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length;
}
