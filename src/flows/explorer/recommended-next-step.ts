import type { ExplorerReport } from './explorer-report-schema.js';

/** What the parent agent should do with a report; a union on `type`. */
export type ExplorerNextStep =
  /** Show the user the inferred goal and ask them to confirm it before planning. */
  | { readonly type: 'confirm'; readonly goal: string | null; readonly message: string }
  /** Ask the user these questions; explore again with the answers as hints. */
  | { readonly type: 'ask'; readonly questions: readonly string[] }
  /** Plan from the findings. */
  | { readonly type: 'plan'; readonly report: ExplorerReport };

/** Options of {@link recommendedNextStep}. */
export interface RecommendedNextStepOptions {
  /** Below this confidence, `ready_to_plan` is downgraded to a confirmation. @default 0.6 */
  readonly minConfidenceToPlan?: number;
}

/**
 * Turns a report into the recommended flow: confirm the goal, ask the open questions, or plan.
 * It follows `recommendedNextAction`, with two guards: a `ready_to_plan` below
 * `minConfidenceToPlan` asks for confirmation instead, and `ask_clarifying_questions` without
 * questions falls back to a confirmation.
 *
 * @example
 * const step = recommendedNextStep(report);
 * if (step.type === 'ask') await askUser(step.questions);
 */
export function recommendedNextStep(
  report: ExplorerReport,
  options: RecommendedNextStepOptions = {},
): ExplorerNextStep {
  const minConfidence = options.minConfidenceToPlan ?? 0.6;
  const confirm = (): ExplorerNextStep => ({
    type: 'confirm',
    goal: report.inferredUserGoal,
    message:
      report.inferredUserGoal === null
        ? `I looked into "${report.question}". Can you say what you want to achieve?`
        : `I understand you want to: ${report.inferredUserGoal}. Is that right?`,
  });
  switch (report.recommendedNextAction) {
    case 'ask_clarifying_questions':
      return report.missingInfoQuestions.length > 0
        ? { type: 'ask', questions: report.missingInfoQuestions }
        : confirm();
    case 'ready_to_plan':
      return report.confidence >= minConfidence ? { type: 'plan', report } : confirm();
    case 'ask_confirmation':
      return confirm();
  }
}
