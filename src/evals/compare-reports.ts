import type { EvalCaseResult, EvalReport } from './eval-report.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/** Which way a number moved between two reports. */
export type EvalChange = 'better' | 'worse' | 'same';

/** One scorer's mean in both reports. */
export interface ScorerComparison {
  readonly name: string;
  /** Absent when the baseline has no such scorer. */
  readonly baselineMean?: number;
  /** Absent when the current report has no such scorer. */
  readonly currentMean?: number;
  /** `currentMean - baselineMean`; 0 when either is absent. */
  readonly delta: number;
  /** `'new'` and `'missing'`: the scorer is in only one report. */
  readonly change: EvalChange | 'new' | 'missing';
}

/** One case that ran in both reports. */
export interface CaseComparison {
  readonly id: string;
  /** The score deltas of the scorers both reports scored the case by, by scorer name. */
  readonly deltas: Readonly<Record<string, number>>;
  /** From the mean of `deltas`. */
  readonly change: EvalChange;
  readonly passedBefore: boolean;
  readonly passedNow: boolean;
}

/** Options of {@link compareReports}. */
export interface CompareReportsOptions {
  /** How far a scorer's mean may drop before it counts as a regression. @default 0 */
  readonly threshold?: number;
}

/** What changed between a baseline report and a current one. */
export interface ReportComparison {
  readonly scorers: readonly ScorerComparison[];
  /** Cases that ran (completed or errored) in both, in the current report's order. */
  readonly cases: readonly CaseComparison[];
  /** Ids of cases only the current report has. */
  readonly newCases: readonly string[];
  /** Ids of cases only the baseline has. */
  readonly missingCases: readonly string[];
  /** Ids of cases in both that did not run (`aborted` or `not_run`) in either, so are not compared. */
  readonly notCompared: readonly string[];
  /** True when a scorer's mean dropped by more than the threshold, or a case that passed now fails. */
  readonly regressed: boolean;
  /** What regressed, one line each (empty when nothing did). */
  readonly regressions: readonly string[];
}

/** A change smaller than this is no change (float sums differ in the last bits). */
const tolerance = 1e-9;

/**
 * Compares two reports: each scorer's mean, each case's scores, the cases added and removed, and
 * whether anything regressed (for a CI exit code). Cases are matched by id.
 *
 * @example
 * const comparison = compareReports(await readReport('baseline.json'), report, { threshold: 0.02 });
 * if (comparison.regressed) process.exitCode = 1;
 */
export function compareReports(
  baseline: EvalReport,
  current: EvalReport,
  options: CompareReportsOptions = {},
): ReportComparison {
  const threshold = options.threshold ?? 0;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw new InvalidArgumentError({
      argument: 'threshold',
      value: threshold,
      message: 'must be a number from 0 to 1',
    });
  }
  const regressions: string[] = [];
  const baselineMeans = new Map(baseline.summary.scorers.map((scorer) => [scorer.name, scorer.mean]));
  const currentMeans = new Map(current.summary.scorers.map((scorer) => [scorer.name, scorer.mean]));
  const scorerNames = [...new Set([...currentMeans.keys(), ...baselineMeans.keys()])];
  const scorers = scorerNames.map((name): ScorerComparison => {
    const before = baselineMeans.get(name);
    const now = currentMeans.get(name);
    if (before === undefined) return { name, currentMean: now!, delta: 0, change: 'new' };
    if (now === undefined) return { name, baselineMean: before, delta: 0, change: 'missing' };
    const delta = now - before;
    if (-delta > threshold + tolerance) {
      regressions.push(
        `scorer ${name}: mean ${format(before)} → ${format(now)} (${format(delta)}), beyond the threshold ${threshold}`,
      );
    }
    return { name, baselineMean: before, currentMean: now, delta, change: changeOf(delta) };
  });

  const baselineCases = new Map(baseline.cases.map((result) => [result.id, result]));
  const currentIds = new Set(current.cases.map((result) => result.id));
  const cases: CaseComparison[] = [];
  const newCases: string[] = [];
  const notCompared: string[] = [];
  for (const now of current.cases) {
    const before = baselineCases.get(now.id);
    if (before === undefined) {
      newCases.push(now.id);
      continue;
    }
    if (!ran(before) || !ran(now)) {
      notCompared.push(now.id);
      continue;
    }
    const deltas: Record<string, number> = {};
    for (const [name, score] of Object.entries(now.scores)) {
      const old = before.scores[name];
      if (old !== undefined) deltas[name] = score.score - old.score;
    }
    const values = Object.values(deltas);
    const meanDelta =
      values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length;
    if (before.passed && !now.passed) {
      const failing = Object.entries(now.scores)
        .filter(([, score]) => !score.passed)
        .map(([name, score]) => `${name} (${score.reason})`);
      regressions.push(
        `case ${now.id} passed and now fails: ${now.status === 'errored' ? `the task threw: ${now.error?.message ?? ''}` : failing.join('; ')}`,
      );
    }
    cases.push({
      id: now.id,
      deltas,
      change: changeOf(meanDelta),
      passedBefore: before.passed,
      passedNow: now.passed,
    });
  }
  const missingCases = baseline.cases
    .filter((result) => !currentIds.has(result.id))
    .map((result) => result.id);
  return {
    scorers,
    cases,
    newCases,
    missingCases,
    notCompared,
    regressed: regressions.length > 0,
    regressions,
  };
}

function ran(result: EvalCaseResult): boolean {
  return result.status === 'completed' || result.status === 'errored';
}

function changeOf(delta: number): EvalChange {
  return delta > tolerance ? 'better' : delta < -tolerance ? 'worse' : 'same';
}

function format(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
