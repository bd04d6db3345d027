import { McpConnectionError } from './errors/mcp-connection-error.js';
import type { McpClientModule } from './load-mcp-sdk.js';

/** What went wrong while connecting, as the connection saw it. */
export interface ConnectFailure {
  readonly error: unknown;
  /** `connectTimeoutMs` passed. */
  readonly timedOut: boolean;
  /** The transport closed (a child process exited) before the connection was ready. */
  readonly exited: boolean;
  readonly phase: 'initialize' | 'tools/list';
  readonly serverName: string;
  /** The command line or URL. */
  readonly label: string;
  readonly connectTimeoutMs: number;
  readonly childProcess: boolean;
  readonly stderrTail: string | undefined;
  readonly sdk: McpClientModule;
}

/** The error `connectMcpServer` throws: what happened, and what to check. */
export function connectFailure(failure: ConnectFailure): McpConnectionError {
  const { error, phase, sdk } = failure;
  const name = JSON.stringify(failure.serverName);
  const common = {
    server: failure.serverName,
    cause: error,
    ...(failure.stderrTail === undefined ? {} : { stderrTail: failure.stderrTail }),
  };
  const code = (error as { code?: unknown } | null)?.code;
  const reason = error instanceof Error ? error.message : String(error);
  if (failure.timedOut || code === sdk.SdkErrorCode.RequestTimeout) {
    return new McpConnectionError({
      ...common,
      message: `MCP server ${name} did not answer ${phase} within ${failure.connectTimeoutMs} ms (connectTimeoutMs). Check that ${failure.childProcess ? 'the command starts an MCP server that speaks JSON-RPC on stdout' : 'the endpoint is an MCP server'}, or raise connectTimeoutMs if it is just slow to start.`,
    });
  }
  if (typeof code === 'string' && /^(ENOENT|EACCES|ENOTDIR|EPERM)$/.test(code)) {
    return new McpConnectionError({
      ...common,
      message: `Could not start MCP server ${failure.label}: ${reason}. Check that the command is installed and on the PATH, or give its full path.`,
    });
  }
  if (failure.exited || code === sdk.SdkErrorCode.ConnectionClosed) {
    return new McpConnectionError({
      ...common,
      message: `MCP server ${name} exited before the connection was ready (during ${phase}).`,
    });
  }
  if (error instanceof sdk.ProtocolError) {
    return new McpConnectionError({
      ...common,
      message: `MCP server ${name} refused ${phase} (JSON-RPC ${error.code}): ${error.message}`,
    });
  }
  return new McpConnectionError({
    ...common,
    message: `Could not connect to MCP server ${name} (during ${phase}): ${reason}`,
  });
}
