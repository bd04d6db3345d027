import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ToolMessage } from '../../src/index.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp.js';
import type { McpConnection, McpWarning } from '../../src/mcp.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { textContent } from '../support/transcript.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
});
const shout = defineTool({
  name: 'shout',
  description: 'Upper-case a text',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', minLength: 1 } },
    required: ['text'],
    additionalProperties: false,
  },
  execute: ({ text }: { text: string }) => text.toUpperCase(),
});
const fail = defineTool({
  name: 'fail',
  description: 'Always fails',
  parameters: z.object({}),
  execute: () => {
    throw new Error('the disk is on fire');
  },
});

const connections: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

async function connectServed(options: Parameters<typeof connectMcpServer>[1] = {}): Promise<McpConnection> {
  const server = await createMcpServer({ add, shout, fail }, { name: 'calc-server', version: '1.2.3' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const connection = await connectMcpServer({ transport: clientSide }, options);
  connections.push(connection);
  return connection;
}

const toolMessages = (messages: readonly { role: string }[]): ToolMessage[] =>
  messages.filter((message): message is ToolMessage => message.role === 'tool');

describe('a served registry used through connectMcpServer in the loop', () => {
  it('lists the tools with their schemas and runs calls, errors and bad arguments like local tools', async () => {
    const warnings: McpWarning[] = [];
    const connection = await connectServed({
      prefix: 'calc',
      onWarning: (warning) => warnings.push(warning),
    });
    expect(connection.serverName).toBe('calc-server');
    expect(connection.serverVersion).toBe('1.2.3');
    expect(Object.keys(connection.tools).sort()).toEqual(['calc__add', 'calc__fail', 'calc__shout']);
    expect(connection.serverToolNames.get('calc__add')).toBe('add');

    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['calc__add', { a: 2, b: 3 }, 'c1'],
        ['calc__shout', { text: 'hi' }, 'c2'],
      ]),
      ScriptedAdapter.toolCalls([
        ['calc__fail', {}, 'c3'],
        ['calc__shout', { text: 7 }, 'c4'],
        ['calc__add', '{"a": 1', 'c5'],
      ]),
      ScriptedAdapter.text('done'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, connection.tools);
    const result = await orchestrator.run([{ role: 'user', content: 'go' }]);

    expect(result.stopReason).toBe('final');
    expect(result.content).toBe('done');
    const definitions = adapter.calls[0]!.tools.map((tool) => tool.function);
    expect(definitions.find((tool) => tool.name === 'calc__shout')).toEqual({
      name: 'calc__shout',
      description: 'Upper-case a text',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string', minLength: 1 } },
        required: ['text'],
        additionalProperties: false,
      },
    });
    const messages = toolMessages(result.messages);
    // The server returned {sum: 5} as text plus structuredContent; the same JSON is not repeated.
    expect(messages[0]!.content).toBe('{"sum":5}');
    expect(messages[1]!.content).toBe('HI');
    // The server's isError result: the served tool's own error, passed through, named once.
    expect(JSON.parse(textContent(messages[2]!.content))).toEqual({
      error: 'Tool "calc__fail" failed: the disk is on fire',
    });
    // Arguments are validated on our side against the server's inputSchema, before any call.
    expect(messages[3]!.content).toContain('do not match its parameters');
    expect(messages[3]!.content).toContain('text');
    expect(messages[4]!.content).toContain('not valid JSON');
    const errors = result.traces
      .filter((event) => event.type === 'tool_result')
      .map((event) => (event.type === 'tool_result' ? event.data.errorCode : undefined));
    expect(errors).toEqual([undefined, undefined, 'tool_error', 'invalid_arguments', 'invalid_json']);
    expect(warnings).toEqual([]);
  });

  it("answers a tool that threw with the tool's own message, as the SDK's McpServer does, and keeps the runner's other messages", async () => {
    const silent = defineTool({
      name: 'silent',
      description: 'Throws an error without a message',
      parameters: z.object({}),
      execute: () => {
        throw new Error('');
      },
    });
    const errors: (string | undefined)[] = [];
    const server = await createMcpServer(
      { fail, shout, silent },
      { name: 'calc-server', version: '1.2.3', onToolCall: ({ error }) => errors.push(error) },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const text = (result: Awaited<ReturnType<Client['callTool']>>): string =>
        (result.content as { text: string }[]).map((block) => block.text).join('\n');
      const failed = await client.callTool({ name: 'fail', arguments: {} });
      expect(failed.isError).toBe(true);
      expect(text(failed)).toBe('the disk is on fire');
      const invalid = await client.callTool({ name: 'shout', arguments: { text: '' } });
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toMatch(/^The arguments for tool "shout" do not match its parameters/);
      // Nothing left after the name: the runner's words stay, so the result still says something.
      const empty = await client.callTool({ name: 'silent', arguments: {} });
      expect(empty.isError).toBe(true);
      expect(text(empty)).toBe('Tool "silent" failed: ');
      expect(errors).toEqual([
        'the disk is on fire',
        expect.stringMatching(/^The arguments for tool "shout"/),
        'Tool "silent" failed: ',
      ]);
    } finally {
      await client.close();
    }
  });

  it('applies toolFilter by server name, and rejects a listed name the server lacks', async () => {
    const filtered = await connectServed({ toolFilter: ['add'] });
    expect(Object.keys(filtered.tools)).toEqual(['add']);
    const byPredicate = await connectServed({ toolFilter: (tool) => tool.name !== 'fail' });
    expect(Object.keys(byPredicate.tools).sort()).toEqual(['add', 'shout']);
    await expect(connectServed({ toolFilter: ['add', 'ad'] })).rejects.toThrow(
      /Invalid toolFilter .*does not offer: "ad"\. It offers: add, shout, fail/,
    );
  });
});
