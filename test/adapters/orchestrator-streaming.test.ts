import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import type { ChatMessage } from '../../src/model/messages.js';
import { ToolOrchestrator } from '../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { chunk, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeResponse } from './fake-openai-server.js';

let server: FakeOpenAIServer;
let adapter: DeepSeekAdapter;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
  const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
  adapter = new DeepSeekAdapter({ model: 'deepseek-v4-pro', client });
});
afterEach(() => server.close());

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, sky: 'sunny' }),
});

const usage = {
  prompt_tokens: 10,
  completion_tokens: 5,
  total_tokens: 15,
  prompt_cache_hit_tokens: 0,
  prompt_cache_miss_tokens: 10,
};

/** A DeepSeek thinking-mode tool turn: reasoning deltas, then one tool call split in two fragments. */
function toolTurn(reasoning: string, id: string, city: string): FakeResponse {
  return {
    type: 'sse',
    items: [
      chunk({ role: 'assistant', content: null, reasoning_content: reasoning.slice(0, 4) }),
      { comment: 'keep-alive' },
      chunk({ content: null, reasoning_content: reasoning.slice(4) }),
      chunk({
        tool_calls: [
          { index: 0, id, type: 'function', function: { name: 'get_weather', arguments: '{"city":' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(city) + '}' } }] }),
      chunk({ content: '' }, { finish_reason: 'tool_calls', usage }),
    ],
  };
}

function answerTurn(reasoning: string, answer: string): FakeResponse {
  return {
    type: 'sse',
    items: [
      chunk({ role: 'assistant', content: null, reasoning_content: reasoning }),
      chunk({ content: answer.slice(0, 5), reasoning_content: null }),
      chunk({ content: answer.slice(5) }, { finish_reason: 'stop', usage }),
    ],
  };
}

function assistantReasoning(body: unknown): unknown[] {
  return (body as { messages: ChatMessage[] }).messages
    .filter((message) => message.role === 'assistant')
    .map((message) => (message.role === 'assistant' ? message.reasoning_content : undefined));
}

describe('ToolOrchestrator with stream: true over DeepSeekAdapter', () => {
  it('emits the deltas as trace events in order and round-trips reasoning_content over three tool turns', async () => {
    server.enqueue(
      toolTurn('Paris first.', 'call_1', 'Paris'),
      toolTurn('Then Rome.', 'call_2', 'Rome'),
      toolTurn('Last, Oslo.', 'call_3', 'Oslo'),
      answerTurn('All known.', 'Sunny in all three.'),
      answerTurn('Same again.', 'Sunny tomorrow too.'),
    );
    const orchestrator = new ToolOrchestrator(
      adapter,
      { get_weather: getWeather },
      { maxTurns: 6, stream: true },
    );
    const first = await orchestrator.run([{ role: 'user', content: 'Weather in Paris, Rome, Oslo?' }]);
    expect(first.stopReason).toBe('final');
    expect(first.content).toBe('Sunny in all three.');
    const deltas = first.traces
      .filter((event) => event.turn === 0 && event.type.endsWith('_delta'))
      .map((event) => [event.type, event.data]);
    expect(deltas).toMatchInlineSnapshot(`
      [
        [
          "reasoning_delta",
          {
            "delta": "Pari",
          },
        ],
        [
          "reasoning_delta",
          {
            "delta": "s first.",
          },
        ],
        [
          "tool_call_delta",
          {
            "argumentsDelta": "{"city":",
            "id": "call_1",
            "index": 0,
            "name": "get_weather",
          },
        ],
        [
          "tool_call_delta",
          {
            "argumentsDelta": ""Paris"}",
            "index": 0,
          },
        ],
      ]
    `);
    const contentDeltas = first.traces.flatMap((event) =>
      event.type === 'content_delta' ? [event.data.delta] : [],
    );
    expect(contentDeltas).toEqual(['Sunny', ' in all three.']);
    const seqs = first.traces.map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((left, right) => left - right));

    const second = await orchestrator.run([...first.messages, { role: 'user', content: 'And tomorrow?' }]);
    expect(second.content).toBe('Sunny tomorrow too.');
    expect(server.requests).toHaveLength(5);
    expect(server.requests.map((request) => assistantReasoning(request.body))).toEqual([
      [],
      ['Paris first.'],
      ['Paris first.', 'Then Rome.'],
      ['Paris first.', 'Then Rome.', 'Last, Oslo.'],
      ['Paris first.', 'Then Rome.', 'Last, Oslo.', 'All known.'],
    ]);
    expect((server.requests[4]?.body as { messages: unknown }).messages).toMatchInlineSnapshot(`
      [
        {
          "content": "Weather in Paris, Rome, Oslo?",
          "role": "user",
        },
        {
          "content": null,
          "reasoning_content": "Paris first.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"city":"Paris"}",
                "name": "get_weather",
              },
              "id": "call_1",
              "type": "function",
            },
          ],
        },
        {
          "content": "{"city":"Paris","sky":"sunny"}",
          "role": "tool",
          "tool_call_id": "call_1",
        },
        {
          "content": null,
          "reasoning_content": "Then Rome.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"city":"Rome"}",
                "name": "get_weather",
              },
              "id": "call_2",
              "type": "function",
            },
          ],
        },
        {
          "content": "{"city":"Rome","sky":"sunny"}",
          "role": "tool",
          "tool_call_id": "call_2",
        },
        {
          "content": null,
          "reasoning_content": "Last, Oslo.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"city":"Oslo"}",
                "name": "get_weather",
              },
              "id": "call_3",
              "type": "function",
            },
          ],
        },
        {
          "content": "{"city":"Oslo","sky":"sunny"}",
          "role": "tool",
          "tool_call_id": "call_3",
        },
        {
          "content": "Sunny in all three.",
          "reasoning_content": "All known.",
          "role": "assistant",
        },
        {
          "content": "And tomorrow?",
          "role": "user",
        },
      ]
    `);
  });

  it('ends with stopReason "aborted" and every tool call answered when aborted mid-stream', async () => {
    server.enqueue(
      {
        type: 'sse',
        items: [
          chunk({ role: 'assistant', content: null, reasoning_content: 'Both.' }),
          chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_p',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          }),
          chunk({
            tool_calls: [
              {
                index: 1,
                id: 'call_r',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
              },
            ],
          }),
          chunk({ content: '' }, { finish_reason: 'tool_calls', usage }),
        ],
      },
      {
        type: 'sse',
        items: [
          chunk({ role: 'assistant', content: 'Sunny' }),
          { delayMs: 10_000 },
          chunk({ content: ' everywhere.' }, { finish_reason: 'stop' }),
        ],
      },
    );
    const controller = new AbortController();
    const traceEmitter = (event: TraceEvent): void => {
      if (event.type === 'content_delta') controller.abort();
    };
    const orchestrator = new ToolOrchestrator(
      adapter,
      { get_weather: getWeather },
      { maxTurns: 5, stream: true, traceEmitter },
    );
    const started = Date.now();
    const result = await orchestrator.run([{ role: 'user', content: 'Paris and Rome?' }], undefined, {
      signal: controller.signal,
    });
    expect(result.stopReason).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(2000);
    await server.disconnected(1);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    const answered = new Set(
      result.messages.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : [])),
    );
    const asked = result.messages.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
    );
    expect(asked).toEqual(['call_p', 'call_r']);
    expect(asked.every((id) => answered.has(id))).toBe(true);
    expect(result.traces.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'aborted' } });
  });
});
