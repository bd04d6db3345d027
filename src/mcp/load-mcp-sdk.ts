import { McpSdkMissingError } from './errors/mcp-sdk-missing-error.js';

import type * as ClientModule from '@modelcontextprotocol/client';
import type * as ClientStdioModule from '@modelcontextprotocol/client/stdio';
import type * as ServerModule from '@modelcontextprotocol/server';
import type * as ServerStdioModule from '@modelcontextprotocol/server/stdio';

export type McpClientModule = typeof ClientModule;
export type McpClientStdioModule = typeof ClientStdioModule;
export type McpServerModule = typeof ServerModule;
export type McpServerStdioModule = typeof ServerStdioModule;

// The SDK is an optional peer dependency: it loads only when an MCP function is first called,
// so `tool-orchestrator/mcp` imports without it and a consumer needs only the client package.
let clientModule: Promise<McpClientModule> | undefined;
let clientStdioModule: Promise<McpClientStdioModule> | undefined;
let serverModule: Promise<McpServerModule> | undefined;
let serverStdioModule: Promise<McpServerStdioModule> | undefined;

/** Loads `@modelcontextprotocol/client`. @throws {McpSdkMissingError} when it is not installed. */
export function loadMcpClient(neededBy: string): Promise<McpClientModule> {
  clientModule ??= load(() => import('@modelcontextprotocol/client'), '@modelcontextprotocol/client');
  return withName(clientModule, neededBy);
}

/** Loads `@modelcontextprotocol/client/stdio` (Node only: it spawns processes). */
export function loadMcpClientStdio(neededBy: string): Promise<McpClientStdioModule> {
  clientStdioModule ??= load(
    () => import('@modelcontextprotocol/client/stdio'),
    '@modelcontextprotocol/client',
  );
  return withName(clientStdioModule, neededBy);
}

/** Loads `@modelcontextprotocol/server`. */
export function loadMcpServer(neededBy: string): Promise<McpServerModule> {
  serverModule ??= load(() => import('@modelcontextprotocol/server'), '@modelcontextprotocol/server');
  return withName(serverModule, neededBy);
}

/** Loads `@modelcontextprotocol/server/stdio`. */
export function loadMcpServerStdio(neededBy: string): Promise<McpServerStdioModule> {
  serverStdioModule ??= load(
    () => import('@modelcontextprotocol/server/stdio'),
    '@modelcontextprotocol/server',
  );
  return withName(serverStdioModule, neededBy);
}

class MissingPackage extends Error {
  constructor(
    readonly packageName: string,
    readonly original: unknown,
  ) {
    super(packageName);
  }
}

async function load<Module>(importer: () => Promise<Module>, packageName: string): Promise<Module> {
  try {
    return await importer();
  } catch (error) {
    if (isModuleNotFound(error, packageName)) throw new MissingPackage(packageName, error);
    throw error;
  }
}

async function withName<Module>(module: Promise<Module>, neededBy: string): Promise<Module> {
  try {
    return await module;
  } catch (error) {
    if (error instanceof MissingPackage) {
      throw new McpSdkMissingError({ packageName: error.packageName, neededBy, cause: error.original });
    }
    throw error;
  }
}

function isModuleNotFound(error: unknown, packageName: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(packageName);
}
