import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';

/** Options of {@link McpSdkMissingError}. */
export interface McpSdkMissingErrorOptions {
  /** The package that could not be loaded, e.g. `'@modelcontextprotocol/client'`. */
  readonly packageName: string;
  /** The function that needs it, e.g. `'connectMcpServer'`. */
  readonly neededBy: string;
  readonly cause?: unknown;
}

/**
 * The official MCP SDK, an optional peer dependency, is not installed: `connectMcpServer` needs
 * `@modelcontextprotocol/client`, `createMcpServer` and `serveMcp` need `@modelcontextprotocol/server`.
 * Code `'mcp_sdk_missing'`.
 */
export class McpSdkMissingError extends ToolOrchestratorError {
  readonly packageName: string;

  constructor(options: McpSdkMissingErrorOptions) {
    super('mcp_sdk_missing', {
      message: `${options.neededBy} needs the MCP SDK package ${options.packageName}, which is not installed. Install it next to tool-orchestrator: npm install ${options.packageName}`,
      cause: options.cause,
    });
    this.packageName = options.packageName;
  }
}
