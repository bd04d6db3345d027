import { z } from 'zod';

/** One piece of evidence: where in the repository a finding comes from. */
export const ExplorerEvidenceSchema = z.object({
  file: z.string().describe('Repo-relative path.'),
  lines: z.string().describe('Line range, e.g. "12-30".'),
  excerpt: z.string().describe('A short verbatim excerpt of those lines.'),
});

/** One finding of the explorer, backed by evidence. */
export const ExplorerFindingSchema = z.object({
  summary: z.string().describe('What was found, in one or two sentences.'),
  evidence: z.array(ExplorerEvidenceSchema).min(1),
});

/**
 * The one JSON object the explorer subagent answers with. `findings` holds at most 5 entries,
 * each with evidence; `recommendedNextAction` drives {@link recommendedNextStep}.
 */
export const ExplorerReportSchema = z.object({
  question: z.string(),
  inferredUserGoal: z.string().nullable(),
  confidence: z.number().min(0).max(1),
  repoMap: z.object({
    entrypoints: z.array(z.string()),
    keyDirs: z.array(z.string()),
    configs: z.array(z.string()),
    commands: z.array(z.string()),
  }),
  findings: z.array(ExplorerFindingSchema).max(5),
  missingInfoQuestions: z.array(z.string()),
  recommendedNextAction: z.enum(['ask_confirmation', 'ask_clarifying_questions', 'ready_to_plan']),
});

/** The explorer subagent's report. */
export type ExplorerReport = z.infer<typeof ExplorerReportSchema>;
/** One finding of an {@link ExplorerReport}. */
export type ExplorerFinding = z.infer<typeof ExplorerFindingSchema>;
