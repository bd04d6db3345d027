// The MCP SDK is an optional peer, and either half of it may be missing: these declarations name
// none of its types, so `tool-orchestrator/mcp` type-checks in an app that has only one half, or
// neither. The SDK's own objects fit them.

/**
 * An MCP SDK transport (`Transport` of `@modelcontextprotocol/client` or `/server`), e.g. one end
 * of `InMemoryTransport.createLinkedPair()`: declared by the methods every transport has.
 */
export interface McpTransport {
  start(): Promise<void>;
  /** Sends one JSON-RPC message. */
  send(message: object, options?: object): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SDK's low-level `Server` (of `@modelcontextprotocol/server`) that `createMcpServer` builds,
 * declared by the two methods a caller needs. The SDK's `createMcpHandler` takes it as its own
 * `Server` type (TypeScript infers it there); elsewhere, cast it to `Server` for the rest of its API.
 */
export interface McpSdkServer {
  /** Starts serving over `transport`. */
  connect(transport: McpTransport): Promise<void>;
  close(): Promise<void>;
}
