import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import { StreamError } from '../../../src/errors/stream-error.js';
import type { ChatMessage } from '../../../src/model/messages.js';
import type {
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../../../src/model/model-adapter.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer, ScriptedAnswer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let client: Anthropic;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const user: ChatMessage[] = [{ role: 'user', content: 'Write both files.' }];
const writeFile = defineTool({
  name: 'write_file',
  description: 'Write a file',
  parameters: z.object({ path: z.string(), text: z.string() }),
  execute: ({ path }) => `wrote ${path}`,
});
const tools: ModelToolDefinition[] = [
  {
    type: 'function',
    function: { name: 'write_file', description: 'Write a file', parameters: writeFile.inputSchema },
  },
];
const thinkingAndCalls: ScriptedAnswer = {
  type: 'turn',
  content: [
    { type: 'thinking', thinking: 'Two files, in parallel.' },
    { type: 'text', text: 'Writing them.' },
    { type: 'tool_use', name: 'write_file', input: { path: 'a.txt', text: 'alpha' } },
    { type: 'tool_use', name: 'write_file', input: { path: 'b.txt', text: 'beta' } },
  ],
};

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const seen: ModelStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function adapter(options: { eager?: boolean | string[]; cache?: false } = {}): AnthropicAdapter {
  return new AnthropicAdapter({
    model: 'claude-sonnet-4-6',
    client,
    thinking: { type: 'enabled', budgetTokens: 2048 },
    ...(options.cache === undefined ? {} : { cache: options.cache }),
    ...(options.eager === undefined ? {} : { eagerInputStreaming: options.eager }),
  });
}

describe('AnthropicAdapter streaming', () => {
  it('streams thinking, text and each tool input in pieces, then the response call returns for the same message', async () => {
    server.enqueue(thinkingAndCalls);
    // No caching, so both requests count their prompt alike.
    const events = await collect(adapter({ cache: false }).stream(user, tools));
    expect(events.filter((event) => event.type !== 'response')).toEqual([
      { type: 'reasoning_delta', delta: 'Two files, i' },
      { type: 'reasoning_delta', delta: 'n parallel.' },
      { type: 'content_delta', delta: 'Writing' },
      { type: 'content_delta', delta: ' them.' },
      {
        type: 'tool_call_delta',
        index: 0,
        id: expect.stringMatching(/^toolu_/),
        name: 'write_file',
        argumentsDelta: '',
      },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"path":"a.txt",' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"text":"alpha"}' },
      {
        type: 'tool_call_delta',
        index: 1,
        id: expect.stringMatching(/^toolu_/),
        name: 'write_file',
        argumentsDelta: '',
      },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"path":"b.txt"' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: ',"text":"beta"}' },
    ]);
    const streamed = (events.at(-1) as { response: ModelResponse }).response;
    // The same message answered as JSON parses to the same response (ids and signatures aside).
    server.enqueue(thinkingAndCalls);
    const called = await adapter({ cache: false }).call(user, tools);
    const normalize = (response: ModelResponse): string =>
      JSON.stringify(response)
        .replaceAll(/toolu_\d+/g, 'toolu')
        .replaceAll(/msg_\d+/g, 'msg')
        .replaceAll(/"signature":"[^"]+"/g, '"signature":"s"')
        .replaceAll(/req_\d+/g, 'req');
    expect(normalize(streamed)).toBe(normalize(called));
    expect(streamed.reasoning?.[0]?.providerData?.['anthropic.messages']).toMatchObject({
      type: 'thinking',
      thinking: 'Two files, in parallel.',
      signature: expect.stringMatching(/^Eq/),
    });
    expect(streamed.tool_calls?.map((call) => call.function.arguments)).toEqual([
      '{"path":"a.txt","text":"alpha"}',
      '{"path":"b.txt","text":"beta"}',
    ]);
  });

  it('turns a tool input cut off by max_tokens into a tool error the loop recovers from', async () => {
    for (const stream of [true, false]) {
      server.enqueue(
        {
          type: 'turn',
          stopReason: 'max_tokens',
          content: [
            { type: 'thinking', thinking: 'A long file.' },
            {
              type: 'cut_tool_use',
              name: 'write_file',
              partialJson: '{"path":"a.txt","text":"alp',
              input: { path: 'a.txt', text: 'alp' },
            },
          ],
        },
        {
          type: 'turn',
          content: [
            { type: 'thinking', thinking: 'It was cut.' },
            { type: 'text', text: 'Sorry.' },
          ],
        },
      );
      const ran: string[] = [];
      const tracked = defineTool({ ...writeFile, execute: ({ path }) => (ran.push(path), `wrote ${path}`) });
      const result = await new ToolOrchestrator(adapter(), { write_file: tracked }, { stream }).run(user);
      expect(result.content).toBe('Sorry.');
      expect(ran).toEqual([]);
      const last = server.requests.at(-1)!.body['messages'] as { content: Record<string, unknown>[] }[];
      expect(server.requests.at(-1)!.refusal).toBeUndefined();
      expect(last[1]!.content.map((block) => block['type'])).toEqual(['thinking', 'tool_use']);
      expect(last[2]!.content[0]).toMatchObject({ type: 'tool_result', is_error: true });
    }
  });

  it('marks the tools eagerInputStreaming names with eager_input_streaming', async () => {
    server.enqueue(thinkingAndCalls);
    const other: ModelToolDefinition = {
      type: 'function',
      function: { name: 'read_file', description: 'Read', parameters: { type: 'object' } },
    };
    await collect(adapter({ eager: ['write_file'] }).stream(user, [...tools, other]));
    const sent = server.requests[0]!.body['tools'] as Record<string, unknown>[];
    expect(sent.map((tool) => tool['eager_input_streaming'])).toEqual([true, undefined]);
    expect(server.requests[0]!.body['stream']).toBe(true);
  });

  it('stops at once on abort mid-stream, and throws the abort reason', async () => {
    server.enqueue({ ...thinkingAndCalls, hangAfterEvents: 6 });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    const started = Date.now();
    const outcome = (async () => {
      for await (const event of adapter().stream(user, tools, { signal: controller.signal })) {
        seen.push(event);
        if (seen.length === 2) controller.abort(new Error('user left'));
      }
    })();
    await expect(outcome).rejects.toThrow('user left');
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
    await server.disconnected(0);
  });

  it('throws a typed, retryable error for an error event once deltas are out, and for a stream cut before message_stop', async () => {
    server.enqueue({
      type: 'events',
      events: [
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            content: [],
            usage: { input_tokens: 5, output_tokens: 1 },
          },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ],
    });
    const failure = await collect(adapter().stream(user, [])).catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(StreamError);
    expect(failure).toMatchObject({ providerCode: 'overloaded_error', retryable: true });
    server.enqueue(
      {
        type: 'events',
        events: [{ type: 'message_start', message: { id: 'msg_2', content: [], usage: {} } }],
      },
      { type: 'turn', content: [{ type: 'text', text: 'Hi' }] },
    );
    const events = await collect(
      new AnthropicAdapter({ model: 'claude-sonnet-4-6', client, maxRetries: 1, retryBaseDelayMs: 1 }).stream(
        user,
        [],
      ),
    );
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: 'Hi' } });
  });
});
