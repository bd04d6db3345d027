import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link ToolDefinitionError}. */
export interface ToolDefinitionErrorOptions {
  readonly toolName: string;
  readonly message: string;
  readonly cause?: unknown;
}

/** A tool definition is unusable: no name, no execute, or a schema that cannot be converted. */
export class ToolDefinitionError extends ToolOrchestratorError {
  readonly toolName: string;

  constructor(options: ToolDefinitionErrorOptions) {
    super('tool_definition', {
      message: `Tool "${options.toolName}": ${options.message}`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
  }
}
