import { isToolContent } from '../tools/tool-content.js';
import { mcpContentBlocks } from './mcp-content-blocks.js';
import type { Server } from '@modelcontextprotocol/server';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { Tool, ToolRegistry } from '../tools/define-tool.js';
import type { ToolErrorCode } from '../tools/tool-call-outcome.js';
import { ToolRunner, toolFailedPrefix } from '../tools/tool-runner.js';
import type { McpToolAnnotations } from './connect-mcp-server-options.js';
import { loadMcpServer } from './load-mcp-sdk.js';
import type { McpServerModule } from './load-mcp-sdk.js';
import type { McpSdkServer } from './mcp-sdk-types.js';

/** One served tool call, for logs. */
export interface McpServedCall {
  readonly name: string;
  readonly durationMs: number;
  /** The error the caller received (as an `isError` result), when the call failed. */
  readonly error?: string;
}

/** Options of {@link createMcpServer} and `serveMcp`. */
export interface McpServeOptions<Context extends object = Record<string, unknown>> {
  /** The server's name in `initialize`, e.g. `'my-tools'`. */
  readonly name: string;
  /** The server's version in `initialize`. */
  readonly version: string;
  /** Usage instructions the host may show to its model. */
  readonly instructions?: string;
  /**
   * MCP annotations to publish over each tool's own (`defineTool`'s `annotations`), key by key:
   * one object for every tool, or a function of the tool. @default each tool's own annotations
   */
  readonly annotations?: McpToolAnnotations | ((tool: Tool) => McpToolAnnotations | undefined);
  /** Runs the calls: validation, timeouts and error results as in the loop. @default new ToolRunner(tools) */
  readonly toolRunner?: ToolRunner;
  /** Caller data handed to every tool in its context, as the orchestrator's `context` option. */
  readonly context?: Context;
  /** Called after every tool call, e.g. to log it (to stderr when serving over stdio). */
  readonly onToolCall?: (call: McpServedCall) => void;
}

/**
 * Builds an MCP server (the SDK's low-level `Server`) that serves `tools`: each listed with its
 * JSON Schema, description and annotations (the tool's own, see `defineTool`); each call validated and run through `ToolRunner`
 * with the same error handling as in the loop, a failure coming back as an `isError` result the
 * calling model can read. An unknown tool name is a JSON-RPC error, as MCP specifies. Connect it
 * to any SDK transport, or return it from a `createMcpHandler` factory to serve over HTTP.
 *
 * Needs the optional peer dependency `@modelcontextprotocol/server`. Its declared type names no SDK
 * type (see {@link McpSdkServer}): where the SDK's `Server` is expected, as in `createMcpHandler`,
 * TypeScript infers `SdkServer` from there; elsewhere pass it, `createMcpServer<Context, Server>`.
 *
 * @throws {InvalidArgumentError} when `name` or `version` is missing or `tools` is not a registry.
 * @throws {ToolDefinitionError} when a tool's schema has no `"type": "object"` root (MCP requires it).
 * @throws {MissingDependencyError} when `@modelcontextprotocol/server` is not installed.
 * @example
 * const handler = createMcpHandler(() => createMcpServer({ add }, { name: 'calc', version: '1.0.0' }));
 */
export async function createMcpServer<
  Context extends object = Record<string, unknown>,
  SdkServer extends McpSdkServer = McpSdkServer,
>(tools: ToolRegistry, options: McpServeOptions<Context>): Promise<SdkServer> {
  checkServeInput(tools, options);
  const sdk = await loadMcpServer();
  // It is the SDK's `Server`, the type the caller names or TypeScript infers (see above).
  return buildMcpServer(sdk, tools, options) as McpSdkServer as SdkServer;
}

/** Checks what `createMcpServer` and `serveMcp` take, so mistakes fail before anything is served. */
export function checkServeInput(tools: ToolRegistry, options: McpServeOptions<object>): void {
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
    throw new InvalidArgumentError({
      argument: 'tools',
      value: tools,
      message: 'must be a ToolRegistry: an object mapping names to tools made with defineTool.',
    });
  }
  for (const key of ['name', 'version'] as const) {
    const value = options?.[key];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new InvalidArgumentError({
        argument: key,
        value,
        message: `must be a non-empty string: the server's ${key} in the MCP handshake.`,
      });
    }
  }
  for (const [name, tool] of Object.entries(tools)) {
    if (typeof tool?.execute !== 'function' || typeof tool.inputSchema !== 'object' || tool.name !== name) {
      throw new ToolDefinitionError({
        toolName: name,
        message: 'is not a tool made with defineTool() registered under its own name.',
      });
    }
    if (tool.inputSchema['type'] !== 'object') {
      throw new ToolDefinitionError({
        toolName: name,
        message: `cannot be served over MCP: MCP requires a parameters schema with "type": "object" at the root; this one has "type": ${JSON.stringify(tool.inputSchema['type'] ?? null)}. Use z.object({...}) or an object JSON Schema.`,
      });
    }
  }
}

/** The server, built from a loaded SDK (synchronous, so it fits per-connection factories). */
export function buildMcpServer<Context extends object>(
  sdk: McpServerModule,
  tools: ToolRegistry,
  options: McpServeOptions<Context>,
): Server {
  const runner = options.toolRunner ?? new ToolRunner(tools);
  const annotationsOf = (tool: Tool): McpToolAnnotations | undefined => {
    const given = typeof options.annotations === 'function' ? options.annotations(tool) : options.annotations;
    if (given === undefined) return tool.annotations;
    return { ...tool.annotations, ...given };
  };
  const listing = Object.values(tools).map((tool) => {
    const annotations = annotationsOf(tool);
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
      ...(annotations === undefined ? {} : { annotations: { ...annotations } }),
    };
  });
  const server = new sdk.Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  const runId = `mcp-${globalThis.crypto.randomUUID()}`;
  server.setRequestHandler('tools/list', () => ({ tools: listing }));
  server.setRequestHandler('tools/call', async (request, context) => {
    const name = request.params.name;
    if (!Object.hasOwn(tools, name)) {
      throw new sdk.ProtocolError(
        sdk.ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}". Available tools: ${Object.keys(tools).join(', ') || '(none)'}.`,
      );
    }
    const requestId = String(context.mcpReq.id);
    const [outcome] = await runner.executeToolCalls(
      tools,
      [
        {
          id: `mcp-${requestId}`,
          type: 'function',
          function: { name, arguments: JSON.stringify(request.params.arguments ?? {}) },
        },
      ],
      { ...options.context, requestId, runId, turnIndex: 0, signal: context.mcpReq.signal },
    );
    const failure =
      outcome?.error ?? (outcome === undefined ? 'The tool runner returned no result.' : undefined);
    const error = failure === undefined ? undefined : servedError(name, outcome?.errorCode, failure);
    try {
      options.onToolCall?.({
        name,
        durationMs: outcome?.durationMs ?? 0,
        ...(error === undefined ? {} : { error }),
      });
    } catch {
      // Logging must not fail the call.
    }
    if (error !== undefined || outcome === undefined) {
      return { content: [{ type: 'text' as const, text: error ?? '' }], isError: true };
    }
    const result = outcome.result;
    const structured =
      typeof result === 'object' && result !== null && !Array.isArray(result) && !isToolContent(result)
        ? { structuredContent: result as Record<string, unknown> }
        : {};
    return { content: mcpContentBlocks(outcome.content), ...structured };
  });
  return server;
}

/**
 * The text of an `isError` result. A tool that threw is answered with its own message, as the SDK's
 * `McpServer` does: the caller knows which tool it called, and a client that names the tool itself
 * (our `connectMcpServer` through its `ToolRunner`) would otherwise say `Tool "x" failed: ` twice.
 * Every other failure keeps the runner's message, which says what to do.
 */
function servedError(name: string, errorCode: ToolErrorCode | undefined, error: string): string {
  const prefix = toolFailedPrefix(name);
  if (errorCode !== 'tool_error' || !error.startsWith(prefix)) return error;
  const message = error.slice(prefix.length);
  // An error without a message keeps the runner's words: an empty result would say nothing.
  return message.trim() === '' ? error : message;
}
