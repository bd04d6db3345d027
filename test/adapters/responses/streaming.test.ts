import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIResponsesAdapter } from '../../../src/adapters/openai/index.js';
import { ServerError } from '../../../src/errors/server-error.js';
import { StreamError } from '../../../src/errors/stream-error.js';
import type { ChatMessage } from '../../../src/model/messages.js';
import type { ModelStreamEvent } from '../../../src/model/model-adapter.js';
import { startFakeResponsesServer } from './fake-responses-server.js';
import type { FakeResponsesServer, ScriptedAnswer } from './fake-responses-server.js';

let server: FakeResponsesServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeResponsesServer();
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const user: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris and Rome?' }];

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const parallelCalls: ScriptedAnswer = {
  type: 'turn',
  output: [
    { type: 'reasoning', summary: ['Two cities,', 'two calls.'] },
    { type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call', name: 'get_weather', arguments: '{"city":"Rome"}' },
  ],
  usage: {
    input_tokens: 1200,
    input_tokens_details: { cached_tokens: 1024 },
    output_tokens: 300,
    output_tokens_details: { reasoning_tokens: 256 },
    total_tokens: 1500,
  },
};

describe('OpenAIResponsesAdapter.stream', () => {
  it('emits reasoning, then each call by index with its arguments in pieces, then the response call returns', async () => {
    server.enqueue(parallelCalls, parallelCalls);
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    const events = await collect(adapter.stream(user, []));
    const deltas = events.filter((event) => event.type !== 'response');
    expect(deltas).toEqual([
      { type: 'reasoning_delta', delta: 'Two citi' },
      { type: 'reasoning_delta', delta: 'es,' },
      { type: 'reasoning_delta', delta: 'two call' },
      { type: 'reasoning_delta', delta: 's.' },
      {
        type: 'tool_call_delta',
        index: 0,
        id: expect.stringMatching(/^call_/),
        name: 'get_weather',
        argumentsDelta: '',
      },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
      {
        type: 'tool_call_delta',
        index: 1,
        id: expect.stringMatching(/^call_/),
        name: 'get_weather',
        argumentsDelta: '',
      },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '"Rome"}' },
    ]);
    const streamed = events.at(-1);
    expect(streamed?.type).toBe('response');
    const response = streamed?.type === 'response' ? streamed.response : undefined;
    expect(response?.tool_calls?.map((call) => call.function.arguments)).toEqual([
      '{"city":"Paris"}',
      '{"city":"Rome"}',
    ]);
    expect(response?.finish_reason).toBe('tool_calls');
    expect(response?.usage).toEqual({
      promptTokens: 1200,
      completionTokens: 300,
      totalTokens: 1500,
      reasoningTokens: 256,
      cachedPromptTokens: 1024,
    });
    expect(response?.reasoning?.[0]?.text).toBe('Two cities,\n\ntwo calls.');
    // The same answer through call(): identical but for the ids the server issued anew.
    const called = await adapter.call(user, []);
    const withoutIds = (value: unknown): string =>
      JSON.stringify(value)
        .replace(/"(rs|fc|call|resp)_\d+"/g, '"id"')
        .replace(/gAAAAB[^"]*/g, 'encrypted');
    expect(withoutIds(response)).toBe(withoutIds({ ...called, requestId: 'req_stream' }));
  });

  it('takes each item whole from response.output_item.done: the encrypted content that added lacks', async () => {
    server.enqueue(parallelCalls);
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    const events = await collect(adapter.stream(user, []));
    const last = events.at(-1);
    const response = last?.type === 'response' ? last.response : undefined;
    expect(response?.reasoning?.[0]?.providerData?.['openai.responses']?.['encrypted_content']).toMatch(
      /^gAAAAB/,
    );
    expect(response?.tool_calls?.[0]?.providerData?.['openai.responses']).toEqual({
      id: expect.stringMatching(/^fc_/),
      status: 'completed',
    });
  });

  it('streams the answer text as content deltas', async () => {
    server.enqueue({ type: 'turn', output: [{ type: 'message', text: 'Sunny in both cities.' }] });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    const events = await collect(adapter.stream(user, []));
    expect(events.filter((event) => event.type === 'content_delta').map((event) => event.delta)).toEqual([
      'Sunny in',
      ' both ci',
      'ties.',
    ]);
    const last = events.at(-1);
    expect(last?.type === 'response' ? [last.response.content, last.response.finish_reason] : []).toEqual([
      'Sunny in both cities.',
      'stop',
    ]);
  });

  it('stops at once on abort mid-stream, and throws the abort reason', async () => {
    server.enqueue({ ...parallelCalls, hangAfterEvents: 6 });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    const started = Date.now();
    const outcome = (async () => {
      for await (const event of adapter.stream(user, [], { signal: controller.signal })) {
        seen.push(event);
        if (seen.length === 2) controller.abort(new Error('user left'));
      }
    })();
    await expect(outcome).rejects.toThrow('user left');
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
    await server.disconnected(0);
  });

  it('throws a typed error for an error event and for response.failed once deltas are out', async () => {
    server.enqueue(
      {
        type: 'events',
        events: [
          {
            type: 'response.output_text.delta',
            item_id: 'msg_1',
            output_index: 0,
            content_index: 0,
            delta: 'Sun',
          },
          { type: 'error', code: 'server_error', message: 'The server had an error.', param: null },
        ],
      },
      {
        type: 'events',
        events: [
          {
            type: 'response.output_text.delta',
            item_id: 'msg_1',
            output_index: 0,
            content_index: 0,
            delta: 'Sun',
          },
          {
            type: 'response.failed',
            response: {
              id: 'resp_1',
              status: 'failed',
              error: { code: 'server_error', message: 'Overloaded.' },
              output: [],
            },
          },
        ],
      },
    );
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, retryBaseDelayMs: 1 });
    const streamed: unknown = await collect(adapter.stream(user, [])).catch((caught: unknown) => caught);
    expect(streamed).toBeInstanceOf(StreamError);
    expect((streamed as StreamError).message).toBe(
      'openai sent an error mid-stream: The server had an error.',
    );
    expect((streamed as StreamError).providerCode).toBe('server_error');
    await expect(collect(adapter.stream(user, []))).rejects.toThrow(ServerError);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a stream that ended before response.completed while nothing was emitted, then fails typed', async () => {
    const truncated: ScriptedAnswer = {
      type: 'events',
      events: [{ type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } }],
    };
    server.enqueue(truncated, truncated);
    const adapter = new OpenAIResponsesAdapter({
      model: 'gpt-5-mini',
      client,
      maxRetries: 1,
      retryBaseDelayMs: 1,
    });
    const error: unknown = await collect(adapter.stream(user, [])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).message).toContain('without response.completed');
    expect(server.requests).toHaveLength(2);
  });

  it('reads a JSON answer to a streaming request as the same events, and an incomplete response as length', async () => {
    server.enqueue(
      { ...parallelCalls, json: true },
      {
        type: 'turn',
        output: [{ type: 'message', text: 'Sunny in' }],
        incomplete: 'max_output_tokens',
      },
    );
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    const events = await collect(adapter.stream(user, []));
    expect(events.map((event) => event.type)).toEqual([
      'reasoning_delta',
      'tool_call_delta',
      'tool_call_delta',
      'response',
    ]);
    expect(events[0]).toEqual({ type: 'reasoning_delta', delta: 'Two cities,\n\ntwo calls.' });
    const cut = (await collect(adapter.stream(user, []))).at(-1);
    expect(cut?.type === 'response' ? [cut.response.content, cut.response.finish_reason] : []).toEqual([
      'Sunny in',
      'length',
    ]);
  });
});
