import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';

/** Options of {@link McpConnectionError}. */
export interface McpConnectionErrorOptions {
  /** How the server is named in messages: its command line, URL or `name` option. */
  readonly server: string;
  /** What went wrong and what to do. */
  readonly message: string;
  /** The last lines the server's process wrote to stderr, when it is a child process. */
  readonly stderrTail?: string;
  readonly cause?: unknown;
}

/**
 * Connecting to an MCP server failed: the command could not start, the server exited or did not
 * answer `initialize` within `connectTimeoutMs`, or it rejected the handshake. Code `'mcp_connection'`.
 * Failures of single tool calls never throw: they become tool results the model can read.
 */
export class McpConnectionError extends ToolOrchestratorError {
  /** How the server is named in the message. */
  readonly server: string;
  /** The server's last stderr output, when there was any. */
  readonly stderrTail: string | undefined;

  constructor(options: McpConnectionErrorOptions) {
    const tail = options.stderrTail ? `\nLast stderr output of the server:\n${options.stderrTail}` : '';
    super('mcp_connection', { message: `${options.message}${tail}`, cause: options.cause });
    this.server = options.server;
    this.stderrTail = options.stderrTail;
  }
}
