import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool, toolContent } from '../../src/index.js';
import type { ContentPart } from '../../src/index.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp.js';
import type { McpConnection } from '../../src/mcp.js';
import { mcpResultContent } from '../../src/mcp/mcp-result-content.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

const pngData = 'iVBORw0KGgo=';

const chart = defineTool({
  name: 'chart',
  description: 'Draw a chart',
  parameters: z.object({}),
  execute: () =>
    toolContent([
      { type: 'text', text: 'Sales by month.' },
      { type: 'image', data: pngData, mediaType: 'image/png' },
      { type: 'file', url: 'https://example.com/sales.csv', mediaType: 'text/csv', filename: 'sales.csv' },
    ]),
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function servedChart() {
  const server = await createMcpServer({ chart }, { name: 'chart-server', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return clientSide;
}

describe('content parts over MCP', () => {
  it('createMcpServer publishes a toolContent result as MCP text and image blocks', async () => {
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(await servedChart());
    closers.push(() => client.close());
    const result = await client.callTool({ name: 'chart', arguments: {} });
    expect(result.isError).not.toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: 'Sales by month.' },
      { type: 'image', data: pngData, mimeType: 'image/png' },
      { type: 'text', text: '[file: sales.csv, text/csv, https://example.com/sales.csv]' },
    ]);
  });

  it('connectMcpServer turns a remote image into an image part of the tool message', async () => {
    const connection: McpConnection = await connectMcpServer({ transport: await servedChart() });
    closers.push(() => connection.close());
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['chart', {}, 'c1']]),
      ScriptedAdapter.text('done'),
    ]);
    const result = await new ToolOrchestrator(adapter, connection.tools).run([
      { role: 'user', content: 'Chart it.' },
    ]);
    const expected: ContentPart[] = [
      { type: 'text', text: 'Sales by month.\n[file: sales.csv, text/csv, https://example.com/sales.csv]' },
      { type: 'image', data: pngData, mediaType: 'image/png' },
    ];
    expect(result.messages.find((message) => message.role === 'tool')?.content).toEqual(expected);
  });

  it('turns a binary resource into a file part named after its URI, and keeps text-only results as text', () => {
    expect(
      mcpResultContent({
        content: [
          {
            type: 'resource',
            resource: { uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
          },
        ],
      }),
    ).toEqual([{ type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'q3.pdf' }]);
    expect(mcpResultContent({ content: [{ type: 'text', text: 'plain' }] })).toBe('plain');
  });
});
