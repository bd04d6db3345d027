import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCodeTools } from '../../src/explore/index.js';
import { defineTool } from '../../src/index.js';
import type { ToolRegistry } from '../../src/index.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp.js';
import type { McpConnection, McpServeOptions } from '../../src/mcp.js';
import { createFixtureRepo } from './fixture-repo.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const serveCodeTools = join(root, 'test', 'mcp', 'fixtures', 'serve-code-tools.ts');

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const deleteAnnotations = {
  title: 'Delete a file',
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
const deleteFile = defineTool({
  name: 'delete_file',
  description: 'Deletes a file.',
  parameters: z.object({ path: z.string() }),
  annotations: deleteAnnotations,
  execute: ({ path }) => `deleted ${path}`,
});
const fetchPage = defineTool({
  name: 'fetch_page',
  description: 'Fetches a web page.',
  parameters: z.object({ url: z.string() }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  execute: ({ url }) => `fetched ${url}`,
});
const plain = defineTool({
  name: 'plain',
  description: 'Says nothing about itself.',
  parameters: z.object({}),
  execute: () => 'ok',
});

let fixture: Awaited<ReturnType<typeof createFixtureRepo>>;
beforeAll(async () => {
  fixture = await createFixtureRepo();
});
afterAll(async () => {
  await fixture.remove();
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The official SDK client, connected in memory to a server built by `createMcpServer`. */
async function servedClient(tools: ToolRegistry, options: Partial<McpServeOptions> = {}): Promise<Client> {
  const server = await createMcpServer(tools, { name: 'test-server', version: '1.0.0', ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'annotations-test', version: '1.0.0' });
  await client.connect(clientSide, { timeout: 10_000 });
  closers.push(() => client.close());
  return client;
}

async function listedAnnotations(client: Client): Promise<Record<string, unknown>> {
  const { tools } = await client.listTools(undefined, { timeout: 10_000 });
  return Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
}

describe('a tool carries its own MCP annotations', () => {
  it('serveMcp(createCodeTools(...)) publishes every code tool as read-only, idempotent and closed-world over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [tsx, serveCodeTools, fixture.root],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'annotations-test', version: '1.0.0' });
    closers.push(() => client.close());
    // tsx compiles the sources first: seconds on a loaded machine.
    await client.connect(transport, { timeout: 45_000 });
    const annotations = await listedAnnotations(client);
    expect(Object.keys(annotations)).toHaveLength(12);
    for (const [name, value] of Object.entries(annotations)) expect(value, name).toEqual(readOnly);
  }, 60_000);

  it('createMcpServer publishes the code tools and user tools with their own annotations', async () => {
    const client = await servedClient({
      ...createCodeTools({ root: fixture.root, tools: ['read_file', 'git_diff'] }),
      delete_file: deleteFile,
      fetch_page: fetchPage,
      plain,
    });
    expect(await listedAnnotations(client)).toEqual({
      read_file: readOnly,
      git_diff: readOnly,
      delete_file: deleteAnnotations,
      fetch_page: { readOnlyHint: true, openWorldHint: true },
      plain: undefined,
    });
  });

  it("merges the server's annotations option over a tool's own, key by key", async () => {
    const client = await servedClient(
      { delete_file: deleteFile, plain },
      { annotations: (tool) => (tool.name === 'delete_file' ? { idempotentHint: false } : undefined) },
    );
    expect(await listedAnnotations(client)).toEqual({
      delete_file: { ...deleteAnnotations, idempotentHint: false },
      plain: undefined,
    });
  });

  it('connectMcpServer carries a remote tool’s annotations onto its tool, and a server built from it publishes them again', async () => {
    const upstream = await createMcpServer(
      { delete_file: deleteFile, plain },
      { name: 'upstream', version: '1.0.0' },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await upstream.connect(serverSide);
    const connection: McpConnection = await connectMcpServer({ transport: clientSide }, { prefix: 'up' });
    closers.push(() => connection.close());
    expect(connection.tools['up__delete_file']?.annotations).toEqual(deleteAnnotations);
    expect(connection.tools['up__plain']?.annotations).toBeUndefined();
    const proxy = await servedClient(connection.tools);
    expect(await listedAnnotations(proxy)).toEqual({
      up__delete_file: deleteAnnotations,
      up__plain: undefined,
    });
  });

  it('connectMcpServer keeps only the annotations MCP defines, with values of their type', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // A server of its own making: extra keys and wrong types in its annotations.
    serverSide.onmessage = (message: JSONRPCMessage) => {
      if (!('id' in message) || !('method' in message)) return;
      const reply = (result: unknown) =>
        void serverSide.send({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage);
      if (message.method === 'initialize') {
        reply({
          protocolVersion: (message.params as { protocolVersion: string }).protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'odd', version: '1.0.0' },
        });
      } else if (message.method === 'tools/list') {
        reply({
          tools: [
            {
              name: 'odd',
              description: 'Odd annotations',
              inputSchema: { type: 'object', properties: {} },
              annotations: { readOnlyHint: 'yes', destructiveHint: false, vendorHint: 1, title: 7 },
            },
          ],
        });
      } else {
        void serverSide.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: `Method not found: ${message.method}` },
        } as JSONRPCMessage);
      }
    };
    await serverSide.start();
    const connection = await connectMcpServer({ transport: clientSide }, { onWarning: () => undefined });
    closers.push(() => connection.close());
    expect(Object.keys(connection.tools)).toEqual(['odd']);
    expect(connection.tools['odd']?.annotations).toEqual({ destructiveHint: false });
  });
});
