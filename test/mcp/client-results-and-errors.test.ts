import { InMemoryTransport } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/index.js';
import { callOnce } from './call-once.js';
import { connectMcpServer } from '../../src/mcp.js';
import type { McpConnection, McpWarning } from '../../src/mcp.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

type CallHandler = (name: string, args: Record<string, unknown>, signal: AbortSignal) => unknown;

interface FakeTool {
  readonly name: string;
  readonly inputSchema?: unknown;
  readonly description?: string;
}

const objectSchema = { type: 'object', properties: {} };

/** A low-level SDK server whose tool list and answers a test controls. */
function fakeServer(
  tools: FakeTool[],
  onCall: CallHandler,
): { server: Server; setTools(next: FakeTool[]): Promise<void> } {
  let current = tools;
  const server = new Server(
    { name: 'fake', version: '0.0.1' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler('tools/list', () => ({
    tools: current.map((tool) => ({ inputSchema: objectSchema, ...tool })) as never,
  }));
  server.setRequestHandler(
    'tools/call',
    async (request, context) =>
      (await onCall(request.params.name, request.params.arguments ?? {}, context.mcpReq.signal)) as never,
  );
  return {
    server,
    async setTools(next) {
      current = next;
      await server.notification({ method: 'notifications/tools/list_changed' });
    },
  };
}

const connections: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

async function connect(
  server: Server,
  options: Parameters<typeof connectMcpServer>[1] = {},
): Promise<{ connection: McpConnection; warnings: McpWarning[]; serverSide: InMemoryTransport }> {
  const warnings: McpWarning[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const connection = await connectMcpServer(
    { transport: clientSide },
    { onWarning: (warning) => warnings.push(warning), ...options },
  );
  connections.push(connection);
  return { connection, warnings, serverSide };
}

describe('MCP results become text the model can read', () => {
  it('joins text, describes audio and text resources, passes images and binary resources as parts, and adds structured content once', async () => {
    const image = Buffer.alloc(2048, 1).toString('base64');
    const tools = [
      { name: 'mixed' },
      { name: 'structured' },
      { name: 'repeated' },
      { name: 'sum' },
      { name: 'empty' },
    ];
    const { server } = fakeServer(tools, (name) => {
      if (name === 'structured') {
        return { content: [{ type: 'text', text: 'Weather:' }], structuredContent: { temperature: 21 } };
      }
      if (name === 'repeated') {
        return {
          content: [{ type: 'text', text: 'line one\nline two' }],
          structuredContent: { content: 'line one\nline two' },
        };
      }
      if (name === 'sum') {
        return { content: [{ type: 'text', text: 'The sum is 42' }], structuredContent: { sum: 42 } };
      }
      if (name === 'empty') return { content: [] };
      return {
        content: [
          { type: 'text', text: 'first' },
          { type: 'image', data: image, mimeType: 'image/png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          {
            type: 'resource',
            resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'note body' },
          },
          {
            type: 'resource',
            resource: { uri: 'file:///blob.bin', mimeType: 'application/octet-stream', blob: 'AAAAAA==' },
          },
          { type: 'resource_link', uri: 'file:///readme.md', name: 'readme', mimeType: 'text/markdown' },
          { type: 'text', text: 'last' },
        ],
      };
    });
    const { connection } = await connect(server);
    expect((await callOnce(connection.tools, 'mixed')).content).toEqual([
      {
        type: 'text',
        text: [
          'first',
          '[audio: audio/wav, 3 bytes; not shown as text]',
          '[resource <file:///notes.txt> (text/plain)]\nnote body',
          '[resource link: readme <file:///readme.md> text/markdown]',
          'last',
        ].join('\n'),
      },
      { type: 'image', data: image, mediaType: 'image/png' },
      { type: 'file', data: 'AAAAAA==', mediaType: 'application/octet-stream', filename: 'blob.bin' },
    ]);
    expect((await callOnce(connection.tools, 'structured')).content).toBe('Weather:\n{"temperature":21}');
    // Structured content that only repeats the text is not sent twice; numbers are never assumed spelled out.
    expect((await callOnce(connection.tools, 'repeated')).content).toBe('line one\nline two');
    expect((await callOnce(connection.tools, 'sum')).content).toBe('The sum is 42\n{"sum":42}');
    expect((await callOnce(connection.tools, 'empty')).content).toBe('');
  });
});

describe('MCP failures become tool errors and the run goes on', () => {
  it('turns isError results and protocol errors into error results', async () => {
    const { server } = fakeServer([{ name: 'broken' }, { name: 'rejected' }], (name) => {
      if (name === 'broken') return { content: [{ type: 'text', text: 'quota exceeded' }], isError: true };
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'widget id is unknown');
    });
    const { connection } = await connect(server);
    const broken = await callOnce(connection.tools, 'broken');
    expect(broken.errorCode).toBe('tool_error');
    expect(broken.error).toBe('Tool "broken" failed: quota exceeded');
    const rejected = await callOnce(connection.tools, 'rejected');
    expect(rejected.errorCode).toBe('tool_error');
    expect(rejected.error).toMatch(
      /MCP server "fake" answered with an error \(JSON-RPC -32602\): .*widget id is unknown/,
    );
  });

  it('says once that a call failed when the SDK refuses a malformed result', async () => {
    // The SDK's own server will not send a malformed result, so this one answers JSON-RPC by hand.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serverSide.onmessage = (message) => {
      const request = message as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (request.id === undefined) return;
      const answer = (body: object): void =>
        void serverSide.send({ jsonrpc: '2.0', id: request.id!, ...body } as never);
      if (request.method === 'initialize') {
        answer({
          result: {
            protocolVersion: request.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'raw', version: '0.0.1' },
          },
        });
      } else if (request.method === 'tools/list') {
        answer({ result: { tools: [{ name: 'garbled', inputSchema: objectSchema }] } });
      } else if (request.method === 'tools/call') {
        answer({ result: { content: 'not a list of blocks' } });
      } else {
        answer({ error: { code: -32601, message: `no ${request.method}` } });
      }
    };
    await serverSide.start();
    const connection = await connectMcpServer({ transport: clientSide }, { onWarning: () => {} });
    connections.push(connection);
    const garbled = await callOnce(connection.tools, 'garbled');
    expect(garbled.errorCode).toBe('tool_error');
    expect(garbled.error).toMatch(
      /^Tool "garbled" failed: The call to MCP server "raw" did not complete: Invalid result for tools\/call/,
    );
    expect(garbled.error!.match(/failed:/g)).toHaveLength(1);
  });

  it('times a slow call out after timeoutMs, cancels it on the server, and the loop continues', async () => {
    let cancelled = false;
    const { server } = fakeServer([{ name: 'slow' }, { name: 'quick' }], (name, _args, signal) => {
      if (name === 'quick') return { content: [{ type: 'text', text: 'quick answer' }] };
      return new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          cancelled = true;
          resolve({ content: [{ type: 'text', text: 'too late' }] });
        });
      });
    });
    const { connection } = await connect(server, { timeoutMs: 150 });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['slow', {}, 's1']]),
      ScriptedAdapter.toolCalls([['quick', {}, 'q1']]),
      ScriptedAdapter.text('ok'),
    ]);
    const result = await new ToolOrchestrator(adapter, connection.tools).run([
      { role: 'user', content: 'go' },
    ]);
    expect(result.stopReason).toBe('final');
    const results = result.traces.flatMap((event) => (event.type === 'tool_result' ? [event.data] : []));
    expect(results[0]!.errorCode).toBe('timeout');
    expect(results[0]!.error).toContain('timed out after 150 ms');
    expect(results[1]!.content).toBe('quick answer');
    await expect.poll(() => cancelled, { timeout: 2_000 }).toBe(true);
  });

  it('reports a server that went away once in full, then briefly, and never throws', async () => {
    const { server } = fakeServer([{ name: 'ping' }], () => ({ content: [{ type: 'text', text: 'pong' }] }));
    const { connection, warnings, serverSide } = await connect(server);
    expect((await callOnce(connection.tools, 'ping')).content).toBe('pong');
    await serverSide.close();
    const first = await callOnce(connection.tools, 'ping');
    const second = await callOnce(connection.tools, 'ping');
    expect(first.error).toContain('MCP server "fake" is not running');
    expect(first.error).not.toContain('shown earlier');
    expect(second.error).toContain('(Its last stderr output was shown earlier.)');
    expect(warnings.map((warning) => warning.code)).toEqual(['server_exited']);
  });
});

describe('the tool list', () => {
  it('follows tools/list_changed: tools come and go in the same registry object', async () => {
    const { server, setTools } = fakeServer([{ name: 'one' }], (name) => ({
      content: [{ type: 'text', text: `ran ${name}` }],
    }));
    let changes = 0;
    const { connection } = await connect(server, { onToolsChanged: () => changes++ });
    const registry = connection.tools;
    expect(Object.keys(registry)).toEqual(['one']);
    await setTools([{ name: 'two', description: 'the second' }]);
    await expect.poll(() => Object.keys(registry), { timeout: 2_000 }).toEqual(['two']);
    expect(changes).toBe(1);
    expect(registry['two']!.description).toBe('the second');
    // A call to a tool that went away is the runner's usual unknown-tool result.
    expect((await callOnce(registry, 'one')).errorCode).toBe('unknown_tool');
    expect((await callOnce(registry, 'two')).content).toBe('ran two');
    // refresh() with nothing changed keeps the same tool objects and reports no change.
    const before = registry['two'];
    await connection.refresh();
    expect(registry['two']).toBe(before);
    expect(changes).toBe(1);
  });

  it('offers a tool that appeared mid-run on the next model call of the same run', async () => {
    const fake: { setTools?: (next: FakeTool[]) => Promise<void> } = {};
    const { server, setTools } = fakeServer([{ name: 'one' }], async (name) => {
      // The first tool's call makes the server add a second tool before it answers.
      if (name === 'one') await fake.setTools?.([{ name: 'one' }, { name: 'two' }]);
      return { content: [{ type: 'text', text: `ran ${name}` }] };
    });
    fake.setTools = setTools;
    const { connection } = await connect(server);
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['one', {}]]),
      ScriptedAdapter.toolCalls([['two', {}]]),
      ScriptedAdapter.text('done'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, connection.tools);
    const changed = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if ('two' in connection.tools) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    // The second model call waits until the notification has reached the registry.
    const run = orchestrator.run([{ role: 'user', content: 'go' }], undefined, {
      prepareTurn: async ({ turn }) => {
        if (turn === 1) await changed;
      },
    });
    const result = await run;
    const offered = adapter.calls.map((call) => (call.tools ?? []).map((tool) => tool.function.name));
    expect(offered).toEqual([['one'], ['one', 'two'], ['one', 'two']]);
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content)).toEqual(['ran one', 'ran two']);
    expect(orchestrator.tools.map((tool) => tool.function.name)).toEqual(['one', 'two']);
  });

  it('sanitises names, resolves collisions the same way whatever the order, and keeps the server names', async () => {
    const names = ['search.files', 'search_files', 'search files', 'x'.repeat(70), 'x'.repeat(69)];
    const registries: string[][] = [];
    for (const order of [names, [...names].reverse()]) {
      const { server } = fakeServer(
        order.map((name) => ({ name })),
        (name) => ({ content: [{ type: 'text', text: name }] }),
      );
      const { connection } = await connect(server, { prefix: 'my-server' });
      registries.push(
        [...connection.serverToolNames]
          .map(([registryName, serverName]) => `${serverName} -> ${registryName}`)
          .sort(),
      );
      for (const registryName of Object.keys(connection.tools)) {
        expect(registryName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        const outcome = await callOnce(connection.tools, registryName);
        expect(outcome.content).toBe(connection.serverToolNames.get(registryName));
      }
    }
    expect(registries[0]).toEqual(registries[1]);
    expect(registries[0]).toEqual(
      expect.arrayContaining([
        'search_files -> my-server__search_files',
        'search files -> my-server__search_files_2',
        'search.files -> my-server__search_files_3',
      ]),
    );
  });

  it('skips a tool with an unusable schema with a warning; the other tools work', async () => {
    const { server } = fakeServer(
      [
        { name: 'good' },
        { name: 'array_root', inputSchema: { type: 'array' } },
        { name: 'bad_properties', inputSchema: { type: 'object', properties: 5 } },
        {
          name: 'dangling_ref',
          inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
        },
        {
          name: 'remote_ref',
          inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } },
        },
      ],
      () => ({ content: [{ type: 'text', text: 'good answer' }] }),
    );
    const { connection, warnings } = await connect(server);
    expect(Object.keys(connection.tools)).toEqual(['good']);
    expect(warnings.map((warning) => [warning.code, warning.toolName])).toEqual([
      ['tool_skipped', 'array_root'],
      ['tool_skipped', 'bad_properties'],
      ['tool_skipped', 'dangling_ref'],
      ['tool_skipped', 'remote_ref'],
    ]);
    expect(warnings[0]!.message).toContain('"type": "object"');
    expect(warnings[2]!.message).toContain('#/$defs/missing');
    expect((await callOnce(connection.tools, 'good')).content).toBe('good answer');
    // The same problems are not reported again on a refresh.
    await connection.refresh();
    expect(warnings).toHaveLength(4);
  });
});
