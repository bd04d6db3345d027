import type { EvalToolCall } from './eval-case.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import type { Usage } from '../model/usage.js';

/** The version of the report format `writeReport` writes and `readReport` reads. */
export const evalReportVersion = 1;

/**
 * How a case went. `'completed'`: the task returned and the scorers ran; `'errored'`: the task
 * threw, and every scorer scores 0; `'aborted'`: the task had started when the evaluation's
 * signal aborted, and threw; `'not_run'`: the signal aborted before the case started.
 */
export type EvalCaseStatus = 'completed' | 'errored' | 'aborted' | 'not_run';

/** One scorer's verdict on one case. */
export interface EvalScore {
  /** From 0 to 1. */
  readonly score: number;
  readonly reason: string;
  /** `score >= threshold`. */
  readonly passed: boolean;
  /** True when the scorer itself failed (threw, or returned no score in [0, 1]): the score is then 0. */
  readonly scorerFailed?: boolean;
}

/** One case of a report: the case, what the task returned, and the scores. */
export interface EvalCaseResult {
  readonly id: string;
  readonly input: unknown;
  readonly expected?: unknown;
  readonly tags: readonly string[];
  readonly status: EvalCaseStatus;
  /** True when the case completed and every scorer passed. */
  readonly passed: boolean;
  /** The final answer (`''` when there is none). */
  readonly content: string;
  readonly output?: unknown;
  readonly toolCalls: readonly EvalToolCall[];
  readonly traces: readonly TraceEvent[];
  readonly usage?: Usage;
  readonly costUsd?: number;
  /** How long the task took, in milliseconds (0 for a case not run). */
  readonly durationMs: number;
  /** What the task threw (`'errored'` and `'aborted'` only). */
  readonly error?: { readonly name: string; readonly message: string };
  /** Each scorer's verdict, by scorer name; empty for a case that did not run to an end. */
  readonly scores: Readonly<Record<string, EvalScore>>;
}

/** One scorer over the cases that completed or errored. */
export interface EvalScorerSummary {
  readonly name: string;
  readonly threshold: number;
  /** The mean score (0 when no case was scored). */
  readonly mean: number;
  /** The share of scored cases that passed (0 when none was scored). */
  readonly passRate: number;
  readonly passed: number;
  readonly failed: number;
  /** Cases where the scorer itself failed. */
  readonly scorerFailures: number;
}

/** The whole evaluation in numbers. */
export interface EvalSummary {
  readonly cases: number;
  readonly completed: number;
  readonly errored: number;
  readonly aborted: number;
  readonly notRun: number;
  /** Cases that completed with every scorer passing. */
  readonly passed: number;
  /** `passed` over the cases scored (completed or errored); 0 when none was. */
  readonly passRate: number;
  /** The mean of the scorers' means; 0 without scorers. */
  readonly meanScore: number;
  readonly scorers: readonly EvalScorerSummary[];
  /** Usage summed over the cases that reported it. */
  readonly usage: Usage;
  /** Cost summed over the cases that reported it; absent when none did. */
  readonly costUsd?: number;
}

/** What `evaluate()` returns, and what `writeReport` and `readReport` store: plain JSON. */
export interface EvalReport {
  readonly version: typeof evalReportVersion;
  readonly name?: string;
  /** When the evaluation started (ISO 8601). */
  readonly startedAt: string;
  /** How long the evaluation took, in milliseconds. */
  readonly durationMs: number;
  /** True when the signal aborted the evaluation: some cases then did not run (`status`). */
  readonly aborted: boolean;
  readonly cases: readonly EvalCaseResult[];
  readonly summary: EvalSummary;
}
