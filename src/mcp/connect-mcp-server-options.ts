import type { ToolRegistry } from '../tools/define-tool.js';
import type { ToolAnnotations } from '../tools/tool-annotations.js';

/** What a server says about one tool, as `toolFilter` sees it (before any checks). */
export interface McpToolListing {
  /** The tool's name on the server (before prefixing and sanitising). */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly annotations?: McpToolAnnotations;
}

/** MCP tool annotations: hints about a tool's behaviour, not guarantees (the same as a tool's own `ToolAnnotations`). */
export type McpToolAnnotations = ToolAnnotations;

/** Why something about a server was not as expected; the connection keeps working. */
export type McpWarningCode =
  | 'tool_skipped'
  | 'tools_unavailable'
  | 'server_exited'
  | 'refresh_failed'
  | 'transport_error'
  | 'filter_unmatched';

/** A problem reported through `onWarning`. */
export interface McpWarning {
  readonly code: McpWarningCode;
  /** The server, as named in messages. */
  readonly server: string;
  /** The tool concerned, by its name on the server. */
  readonly toolName?: string;
  readonly message: string;
}

/** Options of {@link connectMcpServer}. */
export interface ConnectMcpServerOptions {
  /** Tool names become `prefix__name`: 1-32 letters, digits, `_` or `-`. @default no prefix */
  readonly prefix?: string;
  /**
   * Which of the server's tools to use: their names on the server, or a predicate. A listed name
   * the server does not offer fails the connection (a typo would otherwise hide a tool silently).
   * @default every tool
   */
  readonly toolFilter?: readonly string[] | ((tool: McpToolListing) => boolean);
  /** Milliseconds one tool call may take; then it becomes a timeout result. @default 60_000 */
  readonly timeoutMs?: number;
  /** Milliseconds for starting the server, the handshake and the first tool list. @default 10_000 */
  readonly connectTimeoutMs?: number;
  /** How the server is named in errors and warnings. @default the server's own name, else its command line or URL */
  readonly name?: string;
  /** Aborts connecting (the child process is ended). */
  readonly signal?: AbortSignal;
  /**
   * Receives problems that do not stop the connection: a skipped tool, the server exiting, a failed
   * refresh, non-protocol output. @default writes them to `console.warn`
   */
  readonly onWarning?: (warning: McpWarning) => void;
  /** Called after the registry changed (a `tools/list_changed` notification, or `refresh()`). */
  readonly onToolsChanged?: (tools: ToolRegistry) => void;
  /** Receives the child process's stderr as it arrives (it is always kept for error reports). */
  readonly onStderr?: (text: string) => void;
  /** How this client introduces itself in `initialize`. @default { name: 'tool-orchestrator', version: this package's version } */
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

/** A live connection to one MCP server. */
export interface McpConnection {
  /**
   * The server's tools, ready for `ToolOrchestrator` or `ToolRunner`. The object is updated in
   * place by `refresh()` and `tools/list_changed` notifications.
   */
  readonly tools: ToolRegistry;
  /** The server's name for itself, from `initialize`, or the `name` option. */
  readonly serverName: string;
  /** The server's version, from `initialize`. */
  readonly serverVersion: string | undefined;
  /** The server's usage instructions for the model, from `initialize`; worth adding to the system prompt. */
  readonly instructions: string | undefined;
  /** Registry name → the tool's name on the server, for every tool in `tools`. */
  readonly serverToolNames: ReadonlyMap<string, string>;
  /** Lists the server's tools again and updates `tools` in place. */
  refresh(): Promise<void>;
  /** Ends the session; a child process is ended too (stdin closed, then SIGTERM, then SIGKILL). Idempotent. */
  close(): Promise<void>;
}
