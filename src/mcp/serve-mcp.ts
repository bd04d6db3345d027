import type { ToolRegistry } from '../tools/define-tool.js';
import { buildMcpServer, checkServeInput } from './create-mcp-server.js';
import type { McpServeOptions } from './create-mcp-server.js';
import { loadMcpServer, loadMcpServerStdio } from './load-mcp-sdk.js';

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions<
  Context extends object = Record<string, unknown>,
> extends McpServeOptions<Context> {
  /** Where requests arrive. @default process.stdin */
  readonly stdin?: NodeJS.ReadableStream;
  /** Where answers go: nothing else may be written there. @default process.stdout */
  readonly stdout?: NodeJS.WritableStream;
  /** Problems outside any call (unparsable input, a failed write). @default ignored */
  readonly onError?: (error: Error) => void;
}

/** A running stdio MCP server. */
export interface McpStdioServer {
  /** Settles when the client has gone (stdin ended) or `close()` was called. */
  readonly closed: Promise<void>;
  /** Stops serving. Idempotent. */
  close(): Promise<void>;
}

/**
 * Serves `tools` as an MCP server over stdio (see `createMcpServer` for what is served). Stdout
 * carries the protocol only: log to stderr. Resolves once serving has started; `closed` settles
 * when the client closes stdin.
 *
 * Needs the optional peer dependency `@modelcontextprotocol/server`.
 *
 * @throws the errors of `createMcpServer`.
 * @example
 * const server = await serveMcp(createCodeTools({ root: '.' }), { name: 'code', version: '1.0.0' });
 * await server.closed;
 */
export async function serveMcp<Context extends object = Record<string, unknown>>(
  tools: ToolRegistry,
  options: ServeMcpOptions<Context>,
): Promise<McpStdioServer> {
  checkServeInput(tools, options);
  const sdk = await loadMcpServer();
  const { serveStdio, StdioServerTransport } = await loadMcpServerStdio();
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (options.stdout ?? process.stdout) as NodeJS.WriteStream;
  const transport = new StdioServerTransport(stdin, stdout);
  // A factory: the SDK builds a server per connection era (and for a version probe).
  const handle = serveStdio(() => buildMcpServer(sdk, tools, options), {
    transport,
    ...(options.onError === undefined ? {} : { onerror: options.onError }),
  });
  let closing: Promise<void> | undefined;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      try {
        await handle.close();
      } finally {
        markClosed();
      }
    })();
    return closing;
  };
  // The SDK's transport keeps waiting when stdin ends; a host closing stdin means it is done.
  const onEnd = (): void => void close();
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  return { closed, close };
}
