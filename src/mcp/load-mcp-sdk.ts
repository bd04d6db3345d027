import type * as ClientModule from '@modelcontextprotocol/client';
import type * as ClientStdioModule from '@modelcontextprotocol/client/stdio';
import type * as ServerModule from '@modelcontextprotocol/server';
import type * as ServerStdioModule from '@modelcontextprotocol/server/stdio';
import { optionalDependency } from '../shared/optional-dependency.js';

export type McpClientModule = typeof ClientModule;
export type McpClientStdioModule = typeof ClientStdioModule;
export type McpServerModule = typeof ServerModule;
export type McpServerStdioModule = typeof ServerStdioModule;

// The SDK is an optional peer dependency: it loads only when an MCP function is first called, so
// `tool-orchestrator/mcp` imports without it and a consumer needs only the client package. When it
// is missing, these reject with a `MissingDependencyError` naming the install command.
const sdkVersionRange = '^2.4.0';
const client = {
  packageName: '@modelcontextprotocol/client',
  versionRange: sdkVersionRange,
  installCommand: 'npm install @modelcontextprotocol/client',
  neededFor: 'The MCP client functions (connectMcpServer)',
} as const;
const server = {
  packageName: '@modelcontextprotocol/server',
  versionRange: sdkVersionRange,
  installCommand: 'npm install @modelcontextprotocol/server',
  neededFor: 'The MCP server functions (createMcpServer, serveMcp, tool-orchestrator mcp serve)',
} as const;

/** Loads `@modelcontextprotocol/client`. */
export const loadMcpClient: () => Promise<McpClientModule> = optionalDependency({
  ...client,
  load: () => import('@modelcontextprotocol/client'),
});

/** Loads `@modelcontextprotocol/client/stdio` (Node only: it spawns processes). */
export const loadMcpClientStdio: () => Promise<McpClientStdioModule> = optionalDependency({
  ...client,
  load: () => import('@modelcontextprotocol/client/stdio'),
});

/** Loads `@modelcontextprotocol/server`. */
export const loadMcpServer: () => Promise<McpServerModule> = optionalDependency({
  ...server,
  load: () => import('@modelcontextprotocol/server'),
});

/** Loads `@modelcontextprotocol/server/stdio`. */
export const loadMcpServerStdio: () => Promise<McpServerStdioModule> = optionalDependency({
  ...server,
  load: () => import('@modelcontextprotocol/server/stdio'),
});
