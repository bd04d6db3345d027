import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';

/** Options of {@link StructuredOutputError}. */
export interface StructuredOutputErrorOptions {
  /** What the output should have been, e.g. `'ExplorerReport'`. */
  readonly schemaName: string;
  /** The model's last output, exactly as received. */
  readonly rawOutput: string;
  /** The validation problems, one line each (`path: message`). */
  readonly issues: readonly string[];
  /** Whether a repair call was made before giving up. */
  readonly repaired: boolean;
}

/**
 * The model's output was not valid JSON matching the expected schema, even after the repair
 * call (when repair was on). Carries the raw output and the issues so a caller can log or retry.
 */
export class StructuredOutputError extends ToolOrchestratorError {
  readonly schemaName: string;
  readonly rawOutput: string;
  readonly issues: readonly string[];
  readonly repaired: boolean;

  constructor(options: StructuredOutputErrorOptions) {
    const preview =
      options.rawOutput.length > 200 ? `${options.rawOutput.slice(0, 197)}...` : options.rawOutput;
    super('structured_output_invalid', {
      message:
        `The model's output is not a valid ${options.schemaName}${options.repaired ? ' even after one repair call' : ''}: ` +
        `${options.issues.slice(0, 5).join('; ')}. Output was: ${JSON.stringify(preview)}. ` +
        (options.repaired
          ? 'Try a stronger model, or an adapter configured with responseFormat json_schema.'
          : 'Turn repair on, or use an adapter configured with responseFormat json_schema.'),
    });
    this.schemaName = options.schemaName;
    this.rawOutput = options.rawOutput;
    this.issues = options.issues;
    this.repaired = options.repaired;
  }
}
