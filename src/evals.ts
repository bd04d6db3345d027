// `tool-orchestrator/evals`: run a dataset through an agent, score it, and compare two runs (Node only: reports are files).
export { evaluate } from './evals/evaluate.js';
export type { EvalProgress, EvaluateOptions } from './evals/evaluate.js';
export type { EvalCase, EvalToolCall, ScoredCase, TaskContext, TaskResult } from './evals/eval-case.js';
export type { Score, Scorer, ScorerContext } from './evals/scorer.js';
export { evalReportVersion } from './evals/eval-report.js';
export type {
  EvalCaseResult,
  EvalCaseStatus,
  EvalReport,
  EvalScore,
  EvalScorerSummary,
  EvalSummary,
} from './evals/eval-report.js';
export { answerEquals, answerMatches, outputSatisfies } from './evals/scorers/answer-scorers.js';
export type { AnswerEqualsOptions } from './evals/scorers/answer-scorers.js';
export { toolWasCalled, toolWasNotCalled, trajectory } from './evals/scorers/tool-scorers.js';
export type { ToolWasCalledOptions, TrajectoryOptions } from './evals/scorers/tool-scorers.js';
export { maxCost, maxLatency, maxTokens } from './evals/scorers/ceiling-scorers.js';
export { llmJudge } from './evals/scorers/llm-judge.js';
export type { LlmJudgeOptions } from './evals/scorers/llm-judge.js';
export { compareReports } from './evals/compare-reports.js';
export type {
  CaseComparison,
  CompareReportsOptions,
  EvalChange,
  ReportComparison,
  ScorerComparison,
} from './evals/compare-reports.js';
export { parseReport } from './evals/report-schema.js';
export { readReport, writeReport } from './evals/report-file.js';
export { renderEvalHtml } from './evals/render-eval-html.js';
export type { RenderEvalHtmlOptions } from './evals/render-eval-html.js';
export { writeEvalHtml } from './evals/write-eval-html.js';
export type { WriteEvalHtmlOptions, WrittenEvalHtml } from './evals/write-eval-html.js';
export { cassettePathFor, createSuiteModels } from './evals/suite-models.js';
export type { SuiteModels, SuiteModelsOptions } from './evals/suite-models.js';
export type { EvalSuite, EvalSuiteContext, EvalSuiteModule, SuiteModelOptions } from './evals/eval-suite.js';
export { EvalReportError } from './errors/eval-report-error.js';
export type { EvalReportErrorOptions } from './errors/eval-report-error.js';
