import { issueText } from '../tools/schema-issue.js';
import type { SchemaIssue } from '../tools/schema-issue.js';
import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link StructuredOutputError}. */
export interface StructuredOutputErrorOptions {
  /** What the output should have been: the `output` name, e.g. `'final_answer'` or `'ExplorerReport'`. */
  readonly schemaName: string;
  /** The model's last answer as it came: the JSON text, or the final-answer tool's arguments. */
  readonly rawOutput: string;
  /** What is wrong with it: where, and what (one root issue when it is not JSON at all). */
  readonly issues: readonly SchemaIssue[];
  /** How many answers the model gave: 1, or 2 when a repair call was made. */
  readonly attempts: number;
}

/**
 * The model's output did not match the schema asked for (a run's typed `output`, or a flow's
 * report), even after the repair call that showed the model what was wrong (when repair was on).
 * The last answer is on `rawOutput`, what is wrong with it on `issues`; a run's last checkpoint
 * stays, so it can be resumed.
 */
export class StructuredOutputError extends ToolOrchestratorError {
  readonly schemaName: string;
  readonly rawOutput: string;
  readonly issues: readonly SchemaIssue[];
  readonly attempts: number;

  constructor(options: StructuredOutputErrorOptions) {
    const preview =
      options.rawOutput.length > 200 ? `${options.rawOutput.slice(0, 197)}...` : options.rawOutput;
    const shown = options.issues.slice(0, 5).map(issueText).join('; ');
    const more = options.issues.length > 5 ? `; and ${options.issues.length - 5} more` : '';
    super('structured_output_invalid', {
      message:
        `The model's output is not a valid ${options.schemaName}${options.attempts > 1 ? ' even after one repair call' : ''}: ` +
        `${shown}${more}. Output was: ${JSON.stringify(preview)}. Every issue is on error.issues: ` +
        'simplify the schema or describe its fields, or use a stronger model.',
    });
    this.schemaName = options.schemaName;
    this.rawOutput = options.rawOutput;
    this.issues = options.issues;
    this.attempts = options.attempts;
  }

  /** True when a repair call was made before giving up. */
  get repaired(): boolean {
    return this.attempts > 1;
  }
}
