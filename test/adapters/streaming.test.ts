import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { StreamError } from '../../src/errors/stream-error.js';
import type { ModelStreamEvent } from '../../src/model/model-adapter.js';
import { chunk, completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeSseItem } from './fake-openai-server.js';

let server: FakeOpenAIServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const user = [{ role: 'user' as const, content: 'Weather in Paris and Rome?' }];

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** OpenAI's documented shape: id/name on the first fragment, then argument pieces; usage last with `choices: []`. */
const openAIParallelToolCalls: FakeSseItem[] = [
  chunk({ role: 'assistant', content: null, refusal: null }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
  chunk({
    tool_calls: [
      { index: 1, id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '{"city":"Rome"}' } }] }),
  chunk({}, { finish_reason: 'tool_calls' }),
  chunk(null, {
    usage: {
      prompt_tokens: 120,
      completion_tokens: 40,
      total_tokens: 160,
      prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 10, audio_tokens: 0 },
    },
  }),
];

describe('stream', () => {
  it('assembles parallel tool calls by index and emits the deltas in order', async () => {
    server.enqueue({ type: 'sse', items: openAIParallelToolCalls });
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', client });
    const events = await collect(adapter.stream(user, []));
    expect(events).toMatchInlineSnapshot(`
      [
        {
          "argumentsDelta": "",
          "id": "call_a",
          "index": 0,
          "name": "get_weather",
          "type": "tool_call_delta",
        },
        {
          "argumentsDelta": "{"ci",
          "index": 0,
          "type": "tool_call_delta",
        },
        {
          "argumentsDelta": "ty":"Paris"}",
          "index": 0,
          "type": "tool_call_delta",
        },
        {
          "argumentsDelta": "",
          "id": "call_b",
          "index": 1,
          "name": "get_weather",
          "type": "tool_call_delta",
        },
        {
          "argumentsDelta": "{"city":"Rome"}",
          "index": 1,
          "type": "tool_call_delta",
        },
        {
          "response": {
            "content": null,
            "finish_reason": "tool_calls",
            "model": "test-model",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"city":"Paris"}",
                  "name": "get_weather",
                },
                "id": "call_a",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"city":"Rome"}",
                  "name": "get_weather",
                },
                "id": "call_b",
                "type": "function",
              },
            ],
            "usage": {
              "cachedPromptTokens": 64,
              "completionTokens": 40,
              "promptTokens": 120,
              "reasoningTokens": 10,
              "totalTokens": 160,
            },
          },
          "type": "response",
        },
      ]
    `);
    expect(server.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('returns the same response as call for the same payload', async () => {
    const message = {
      content: 'Checking.',
      reasoning_content: 'Two cities.',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
      ],
    };
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_cache_hit_tokens: 8,
      prompt_cache_miss_tokens: 2,
    };
    server.enqueue(
      {
        type: 'json',
        body: completion(message, { usage, finish_reason: 'tool_calls' }),
        headers: { 'x-request-id': 'req-1' },
      },
      {
        type: 'sse',
        headers: { 'x-request-id': 'req-1' },
        items: [
          { comment: 'keep-alive' },
          chunk({ role: 'assistant', content: null, reasoning_content: 'Two ' }),
          { comment: 'keep-alive' },
          chunk({ content: null, reasoning_content: 'cities.' }),
          chunk({ content: 'Checking.', reasoning_content: null }),
          chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_a',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":' },
              },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
          chunk({
            tool_calls: [
              {
                index: 1,
                id: 'call_b',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
              },
            ],
          }),
          // DeepSeek puts usage on the finish_reason chunk.
          chunk({ content: '' }, { finish_reason: 'tool_calls', usage }),
        ],
      },
    );
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client });
    const called = await adapter.call(user, []);
    const streamed = await collect(adapter.stream(user, []));
    const final = streamed.at(-1);
    expect(final).toEqual({ type: 'response', response: called });
    expect(called).toMatchInlineSnapshot(`
      {
        "content": "Checking.",
        "finish_reason": "tool_calls",
        "model": "test-model",
        "reasoning_content": "Two cities.",
        "requestId": "req-1",
        "tool_calls": [
          {
            "function": {
              "arguments": "{"city":"Paris"}",
              "name": "get_weather",
            },
            "id": "call_a",
            "type": "function",
          },
          {
            "function": {
              "arguments": "{"city":"Rome"}",
              "name": "get_weather",
            },
            "id": "call_b",
            "type": "function",
          },
        ],
        "usage": {
          "cachedPromptTokens": 8,
          "completionTokens": 5,
          "promptTokens": 10,
          "reasoningTokens": 0,
          "totalTokens": 15,
        },
      }
    `);
    expect(streamed.filter((event) => event.type === 'reasoning_delta').map((event) => event.delta)).toEqual([
      'Two ',
      'cities.',
    ]);
  });

  it('ignores SSE comment lines such as : keep-alive, before and between chunks', async () => {
    server.enqueue({
      type: 'sse',
      items: [
        { comment: 'keep-alive' },
        { raw: ': keep-alive\r\n\r\n' },
        chunk({ role: 'assistant', content: 'Hel' }),
        { comment: 'keep-alive' },
        chunk({ content: 'lo' }, { finish_reason: 'stop' }),
      ],
    });
    const events = await collect(
      new DeepSeekAdapter({ model: 'deepseek-v4-flash', client }).stream(user, []),
    );
    expect(events.map((event) => (event.type === 'response' ? event.response.content : event.type))).toEqual([
      'content_delta',
      'content_delta',
      'Hello',
    ]);
  });

  it('raises a StreamError when an error object arrives mid-stream', async () => {
    server.enqueue({
      type: 'sse',
      headers: { 'x-request-id': 'req-9' },
      items: [
        chunk({ role: 'assistant', content: 'Par' }),
        { data: { error: { message: 'Model overloaded', type: 'server_error', code: 'overloaded' } } },
      ],
    });
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', client });
    const error = await collect(adapter.stream(user, [])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamError);
    expect(error).toMatchObject({
      code: 'stream_error',
      provider: 'openai',
      providerCode: 'overloaded',
      requestId: 'req-9',
      retryable: true,
      status: undefined,
    });
    expect((error as Error).message).toBe('openai sent an error mid-stream: Model overloaded');
  });

  it('stops reading at once when aborted mid-stream, and throws the abort reason', async () => {
    server.enqueue({
      type: 'sse',
      items: [
        chunk({ role: 'assistant', content: 'Hel' }),
        { delayMs: 10_000 },
        chunk({ content: 'lo' }, { finish_reason: 'stop' }),
      ],
    });
    const controller = new AbortController();
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', client });
    const seen: ModelStreamEvent[] = [];
    const started = Date.now();
    const outcome = (async () => {
      for await (const event of adapter.stream(user, [], { signal: controller.signal })) {
        seen.push(event);
        setTimeout(() => controller.abort(), 20);
      }
    })();
    await expect(outcome).rejects.toMatchObject({ name: 'AbortError' });
    await server.disconnected(0);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(seen).toEqual([{ type: 'content_delta', delta: 'Hel' }]);
  });

  it('stops right after the event during which the consumer aborted', async () => {
    server.enqueue({
      type: 'sse',
      items: [chunk({ role: 'assistant', content: 'a' }), chunk({ content: 'b' }), chunk({ content: 'c' })],
    });
    const controller = new AbortController();
    const seen: string[] = [];
    const outcome = (async () => {
      for await (const event of new OpenAIAdapter({ model: 'm', client }).stream(user, [], {
        signal: controller.signal,
      })) {
        if (event.type === 'content_delta') seen.push(event.delta);
        controller.abort();
      }
    })();
    await expect(outcome).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['a']);
  });
  it('stops between two deltas of one chunk when the consumer aborts', async () => {
    server.enqueue({
      type: 'sse',
      items: [
        chunk(
          {
            role: 'assistant',
            tool_calls: [
              { index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
              { index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
            ],
          },
          { finish_reason: 'tool_calls' },
        ),
      ],
    });
    const controller = new AbortController();
    const seen: number[] = [];
    const outcome = (async () => {
      for await (const event of new OpenAIAdapter({ model: 'm', client }).stream(user, [], {
        signal: controller.signal,
      })) {
        if (event.type === 'tool_call_delta') seen.push(event.index);
        controller.abort();
      }
    })();
    await expect(outcome).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([0]);
  });
});

describe('usage', () => {
  it('normalises OpenAI usage details', async () => {
    server.enqueue({
      type: 'json',
      body: completion(
        { content: 'hi' },
        {
          usage: {
            prompt_tokens: 2006,
            completion_tokens: 300,
            total_tokens: 2306,
            prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
            completion_tokens_details: {
              reasoning_tokens: 128,
              audio_tokens: 0,
              accepted_prediction_tokens: 0,
              rejected_prediction_tokens: 0,
            },
          },
        },
      ),
    });
    const response = await new OpenAIAdapter({ model: 'gpt-5-mini', client }).call(user, []);
    expect(response.usage).toEqual({
      promptTokens: 2006,
      completionTokens: 300,
      totalTokens: 2306,
      reasoningTokens: 128,
      cachedPromptTokens: 1920,
    });
  });

  it("normalises DeepSeek's prompt_cache_hit_tokens", async () => {
    server.enqueue({
      type: 'json',
      body: completion(
        { content: 'hi', reasoning_content: 'think' },
        {
          usage: {
            prompt_tokens: 900,
            completion_tokens: 50,
            total_tokens: 950,
            prompt_cache_hit_tokens: 640,
            prompt_cache_miss_tokens: 260,
            completion_tokens_details: { reasoning_tokens: 30 },
          },
        },
      ),
    });
    const response = await new DeepSeekAdapter({ model: 'deepseek-v4-pro', client }).call(user, []);
    expect(response.usage).toEqual({
      promptTokens: 900,
      completionTokens: 50,
      totalTokens: 950,
      reasoningTokens: 30,
      cachedPromptTokens: 640,
    });
  });

  it('takes streamed usage from the final choices: [] chunk (OpenAI)', async () => {
    server.enqueue({ type: 'sse', items: openAIParallelToolCalls });
    const events = await collect(new OpenAIAdapter({ model: 'gpt-5-mini', client }).stream(user, []));
    const final = events.at(-1);
    expect(final?.type === 'response' ? final.response.usage : undefined).toEqual({
      promptTokens: 120,
      completionTokens: 40,
      totalTokens: 160,
      reasoningTokens: 10,
      cachedPromptTokens: 64,
    });
  });
});
