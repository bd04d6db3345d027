import { z } from 'zod';

// The schemas are declared as `z.ZodType<...>` of the types below, not inferred: an inferred zod 4
// type names zod 4 internals, which an app on zod 3.25 cannot type-check.

/** One piece of evidence: where in the repository a finding comes from. */
export interface ExplorerEvidence {
  /** Repo-relative path. */
  file: string;
  /** Line range, e.g. `"12-30"`. */
  lines: string;
  /** A short verbatim excerpt of those lines. */
  excerpt: string;
}

/** One finding of an {@link ExplorerReport}, backed by evidence. */
export interface ExplorerFinding {
  /** What was found, in one or two sentences. */
  summary: string;
  /** At least one piece of evidence. */
  evidence: ExplorerEvidence[];
}

/** The explorer subagent's report. */
export interface ExplorerReport {
  question: string;
  inferredUserGoal: string | null;
  /** From 0 to 1. */
  confidence: number;
  repoMap: {
    entrypoints: string[];
    keyDirs: string[];
    configs: string[];
    commands: string[];
  };
  /** At most 5. */
  findings: ExplorerFinding[];
  missingInfoQuestions: string[];
  recommendedNextAction: 'ask_confirmation' | 'ask_clarifying_questions' | 'ready_to_plan';
}

/** One piece of evidence: where in the repository a finding comes from. */
export const ExplorerEvidenceSchema: z.ZodType<ExplorerEvidence> = z.object({
  file: z.string().describe('Repo-relative path.'),
  lines: z.string().describe('Line range, e.g. "12-30".'),
  excerpt: z.string().describe('A short verbatim excerpt of those lines.'),
});

/** One finding of the explorer, backed by evidence. */
export const ExplorerFindingSchema: z.ZodType<ExplorerFinding> = z.object({
  summary: z.string().describe('What was found, in one or two sentences.'),
  evidence: z.array(ExplorerEvidenceSchema).min(1),
});

/**
 * The one JSON object the explorer subagent answers with. `findings` holds at most 5 entries,
 * each with evidence; `recommendedNextAction` drives {@link recommendedNextStep}.
 */
export const ExplorerReportSchema: z.ZodType<ExplorerReport> = z.object({
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
