import { jsonSchemaOf } from '../shared/flow-schemas.js';
import { ExplorerReportSchema } from './explorer-report-schema.js';

/** What the explorer's prompts are built from. */
export interface ExplorerPromptInput {
  readonly directory?: string | undefined;
  readonly hints?: readonly string[] | undefined;
  readonly files?: readonly string[] | undefined;
  readonly maxTurns: number;
}

/** The explorer subagent's system prompt: the task, its tools, its budget and the report schema. */
export function explorerSystemPrompt(input: ExplorerPromptInput): string {
  const lines = [
    'You are a read-only code explorer working for another agent. Answer its question about this repository',
    'with evidence, so it can decide whether to confirm the goal with the user, ask questions, or plan.',
    '',
    'Tools: grep_repo (search file contents) and read_file (read lines). You cannot change anything.',
    `You have at most ${input.maxTurns} turns of tool calls; spend them on the files that matter.`,
  ];
  if (input.directory !== undefined) lines.push(`Focus on the directory "${input.directory}".`);
  if (input.files !== undefined && input.files.length > 0)
    lines.push(`Start with these files: ${input.files.join(', ')}.`);
  if (input.hints !== undefined && input.hints.length > 0)
    lines.push(`Hints from the caller: ${input.hints.join('; ')}.`);
  lines.push(
    '',
    'When you are done, give your report, an ExplorerReport (at most 5 findings, each with evidence',
    '{file, lines, excerpt}): call the ExplorerReport tool when you have one, else answer with exactly one',
    'JSON object and nothing else (no Markdown fence, no prose). Its JSON Schema:',
    JSON.stringify(jsonSchemaOf(ExplorerReportSchema)),
  );
  return lines.join('\n');
}

/** Sent before the call with tools off that asks for the report when the budget is spent first. */
export const explorerReportRequest =
  'Your exploration budget is spent. Without searching or reading any further, give your report now.';
