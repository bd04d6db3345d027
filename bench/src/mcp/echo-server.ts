/**
 * The smallest useful MCP server, on the SDK alone: one `echo` tool over stdio. The baseline of
 * the MCP benchmarks (per-call overhead over stdio, and start-up time).
 */
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

export const echoTool = {
  name: 'echo',
  description: 'Echo the text back',
  inputSchema: {
    type: 'object' as const,
    properties: { text: { type: 'string' } },
    required: ['text'],
  },
};

/** A low-level SDK server with the `echo` tool. */
export function createEchoServer(): Server {
  const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [echoTool] }));
  server.setRequestHandler('tools/call', (request) => ({
    content: [{ type: 'text', text: String((request.params.arguments as { text?: unknown }).text) }],
  }));
  return server;
}

if (process.argv[2] === 'serve') {
  await createEchoServer().connect(new StdioServerTransport());
}
