import { z } from 'zod';
import { evalReportVersion } from './eval-report.js';
import type { EvalReport } from './eval-report.js';
import { EvalReportError } from '../errors/eval-report-error.js';

const usage = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  reasoningTokens: z.number(),
  cachedPromptTokens: z.number(),
  cacheWriteTokens: z.number().optional(),
});
const unitScore = z.number().min(0).max(1);
const score = z.object({
  score: unitScore,
  reason: z.string(),
  passed: z.boolean(),
  scorerFailed: z.boolean().optional(),
});
const caseResult = z.object({
  id: z.string(),
  input: z.unknown(),
  expected: z.unknown().optional(),
  tags: z.array(z.string()),
  status: z.enum(['completed', 'errored', 'aborted', 'not_run']),
  passed: z.boolean(),
  content: z.string(),
  output: z.unknown().optional(),
  toolCalls: z.array(z.object({ name: z.string(), arguments: z.unknown() })),
  traces: z.array(z.object({ type: z.string() })),
  usage: usage.optional(),
  costUsd: z.number().optional(),
  durationMs: z.number(),
  error: z.object({ name: z.string(), message: z.string() }).optional(),
  scores: z.record(z.string(), score),
});
const scorerSummary = z.object({
  name: z.string(),
  threshold: unitScore,
  mean: unitScore,
  passRate: unitScore,
  passed: z.number(),
  failed: z.number(),
  scorerFailures: z.number(),
});
const report = z.object({
  version: z.literal(evalReportVersion),
  name: z.string().optional(),
  startedAt: z.string(),
  durationMs: z.number(),
  aborted: z.boolean(),
  cases: z.array(caseResult),
  summary: z.object({
    cases: z.number(),
    completed: z.number(),
    errored: z.number(),
    aborted: z.number(),
    notRun: z.number(),
    passed: z.number(),
    passRate: unitScore,
    meanScore: unitScore,
    scorers: z.array(scorerSummary),
    usage,
    costUsd: z.number().optional(),
  }),
});

/**
 * Checks that a value parsed from JSON is an evaluation report this version reads, and returns it.
 *
 * @param source Where the value came from, for the error (a file path).
 * @throws EvalReportError naming the first field that is wrong, or the version.
 */
export function parseReport(value: unknown, source: string): EvalReport {
  const version =
    typeof value === 'object' && value !== null ? (value as { version?: unknown }).version : undefined;
  if (version !== evalReportVersion) {
    throw new EvalReportError({
      path: source,
      message: `${source} is not an evaluation report of version ${evalReportVersion} (its version is ${JSON.stringify(version) ?? 'missing'}): write it again with this version's evaluate() and writeReport()`,
    });
  }
  const parsed = report.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path
      .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
      .join('');
    throw new EvalReportError({
      path: source,
      message: `${source} is not a valid evaluation report: at ${where === '' ? '(root)' : where.replace(/^\./, '')}, ${issue.message}. Write it with writeReport(), or repair that field.`,
    });
  }
  // The value as written: zod would drop the fields it does not list (a newer minor's extras).
  return value as EvalReport;
}
