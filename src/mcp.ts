// `tool-orchestrator/mcp` (Node only): an MCP server's tools in a run, and a tool registry served as an
// MCP server. Loads the optional peer MCP SDK.
export { connectMcpServer } from './mcp/connect-mcp-server.js';
export type {
  ConnectMcpServerOptions,
  McpConnection,
  McpToolAnnotations,
  McpToolListing,
  McpWarning,
  McpWarningCode,
} from './mcp/connect-mcp-server-options.js';
export type {
  McpHttpServerSpec,
  McpServerSpec,
  McpStdioServerSpec,
  McpTransportServerSpec,
} from './mcp/mcp-server-spec.js';
export type { McpSdkServer, McpTransport } from './mcp/mcp-sdk-types.js';
export { createMcpServer } from './mcp/create-mcp-server.js';
export type { McpServeOptions, McpServedCall } from './mcp/create-mcp-server.js';
export { serveMcp } from './mcp/serve-mcp.js';
export type { McpStdioServer, ServeMcpOptions } from './mcp/serve-mcp.js';
export { mcpResultText } from './mcp/mcp-result-text.js';
export type { McpCallResult } from './mcp/mcp-result-text.js';
export { McpConnectionError } from './mcp/errors/mcp-connection-error.js';
export type { McpConnectionErrorOptions } from './mcp/errors/mcp-connection-error.js';
