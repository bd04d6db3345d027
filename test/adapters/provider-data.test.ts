import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { AssistantMessage, ChatMessage } from '../../src/index.js';
import { chunk, completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeResponse } from './fake-openai-server.js';

// Fields a compatible server adds to its message and tool calls go back with them on the next
// turns, through the orchestrator; OpenAI's own output-only fields and other APIs' data never do.

let server: FakeOpenAIServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});

const signature = { google: { thought_signature: 'c2lnbmF0dXJlLTE=' } };
const reasoningDetails = [
  { type: 'reasoning.encrypted', data: 'gAAAAB-opaque', id: 'rd_1', format: 'google-gemini-v1', index: 0 },
];

/** A gateway's tool turn: fields of its own on the message and on the call, beside OpenAI's output-only ones. */
function gatewayToolTurn(): Record<string, unknown> {
  return completion(
    {
      refusal: null,
      annotations: [],
      audio: null,
      reasoning_details: reasoningDetails,
      extra_content: { gateway: { turn: 1, flags: [true, null] } },
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          extra_content: signature,
        },
      ],
    },
    { finish_reason: 'tool_calls' },
  );
}

/** The same turn streamed: the message's fields split over deltas, the signature on the call's first fragment. */
function gatewayToolTurnStreamed(): FakeResponse {
  return {
    type: 'sse',
    items: [
      chunk({ role: 'assistant', content: null, refusal: null }),
      chunk({ reasoning_details: reasoningDetails }),
      chunk({ extra_content: { gateway: { turn: 1, flags: [true, null] } } }),
      chunk({
        tool_calls: [
          {
            index: 0,
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":' },
            extra_content: signature,
          },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({}, { finish_reason: 'tool_calls' }),
    ],
  };
}

function assistantOnTheWire(index: number): Record<string, unknown> {
  const body = server.requests[index]?.body as { messages: Record<string, unknown>[] };
  const found = body.messages.find((message) => message['role'] === 'assistant');
  if (found === undefined) throw new Error(`request ${index} holds no assistant message`);
  return found;
}

describe('provider data on the Chat Completions adapters', () => {
  it('names its key after the provider and the API', () => {
    expect(new OpenAIAdapter({ model: 'm', client }).providerDataKey).toBe('openai.chat_completions');
    expect(new DeepSeekAdapter({ model: 'm', client }).providerDataKey).toBe('deepseek.chat_completions');
    expect(
      new OpenAIAdapter({ model: 'm', apiKey: 'k', baseURL: 'https://api.groq.com/openai/v1' })
        .providerDataKey,
    ).toBe('groq.chat_completions');
  });

  for (const stream of [false, true]) {
    it(`keeps a gateway's message and tool-call fields and sends them back as received (${stream ? 'stream' : 'call'})`, async () => {
      server.enqueue(stream ? gatewayToolTurnStreamed() : { type: 'json', body: gatewayToolTurn() }, {
        type: 'json',
        body: completion({ content: 'Sunny.' }),
      });
      const adapter = new OpenAIAdapter({ model: 'gateway-model', client });
      const result = await new ToolOrchestrator(adapter, { get_weather: weather }, { stream }).run([
        { role: 'user', content: 'Weather in Oslo?' },
      ]);
      expect(result.content).toBe('Sunny.');
      const kept = result.messages[1] as AssistantMessage;
      expect(kept.providerData).toEqual({
        'openai.chat_completions': {
          reasoning_details: reasoningDetails,
          extra_content: { gateway: { turn: 1, flags: [true, null] } },
        },
      });
      expect(kept.tool_calls?.[0]?.providerData).toEqual({
        'openai.chat_completions': { extra_content: signature },
      });
      const sent = assistantOnTheWire(1);
      expect(sent).toEqual({
        role: 'assistant',
        content: null,
        reasoning_details: reasoningDetails,
        extra_content: { gateway: { turn: 1, flags: [true, null] } },
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            extra_content: signature,
          },
        ],
      });
    });
  }

  it('puts a field streamed in pieces together: strings and arrays concatenated, other values replaced', async () => {
    server.enqueue({
      type: 'sse',
      items: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ reasoning_details: [{ type: 'reasoning.text', text: 'first', index: 0 }], trace: 'ab' }),
        chunk({ reasoning_details: [{ type: 'reasoning.text', text: 'second', index: 1 }], trace: 'cd' }),
        chunk({ route: { hop: 1 } }),
        chunk({ content: 'Done.', route: { hop: 2 } }),
        chunk({}, { finish_reason: 'stop' }),
      ],
    });
    let response: unknown;
    for await (const event of new OpenAIAdapter({ model: 'm', client }).stream(
      [{ role: 'user', content: 'hi' }],
      [],
    ))
      if (event.type === 'response') response = event.response;
    expect(response).toMatchObject({
      content: 'Done.',
      providerData: {
        'openai.chat_completions': {
          reasoning_details: [
            { type: 'reasoning.text', text: 'first', index: 0 },
            { type: 'reasoning.text', text: 'second', index: 1 },
          ],
          trace: 'abcd',
          route: { hop: 2 },
        },
      },
    });
  });

  it("keeps none of OpenAI's output-only fields (refusal, annotations, audio, function_call), nor Groq's reasoning text", async () => {
    server.enqueue({
      type: 'json',
      body: completion({
        content: 'Done.',
        refusal: 'no',
        annotations: [{ type: 'url_citation' }],
        audio: { id: 'audio_1' },
        function_call: { name: 'f', arguments: '{}' },
        reasoning: 'Groq answers 400 when this comes back.',
        extra_content: { kept: true },
      }),
    });
    const response = await new OpenAIAdapter({ model: 'm', client }).call(
      [{ role: 'user', content: 'hi' }],
      [],
    );
    expect(response.providerData).toEqual({ 'openai.chat_completions': { extra_content: { kept: true } } });
  });

  it('never sends reasoning, providerData, or the data of another key', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'ok' }) });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        reasoning: [
          { type: 'reasoning', text: 'thought', providerData: { 'openai.responses': { id: 'rs_1' } } },
        ],
        providerData: {
          'openai.responses': { id: 'msg_1' },
          'deepseek.chat_completions': { from_deepseek: 1 },
          'openai.chat_completions': { extra_content: { mine: true } },
        },
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{}' },
            providerData: { 'anthropic.messages': { signature: 'sig' } },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ];
    await new OpenAIAdapter({ model: 'm', client }).call(messages, []);
    expect(assistantOnTheWire(0)).toEqual({
      role: 'assistant',
      content: null,
      extra_content: { mine: true },
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    });
  });

  it('DeepSeek keeps its own fields beside reasoning_content, and still replays reasoning_content', async () => {
    server.enqueue(
      {
        type: 'json',
        body: completion(
          {
            reasoning_content: 'Oslo first.',
            cache_marker: 'x1',
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
              },
            ],
          },
          { finish_reason: 'tool_calls' },
        ),
      },
      { type: 'json', body: completion({ reasoning_content: 'Done.', content: 'Sunny.' }) },
    );
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client });
    await new ToolOrchestrator(adapter, { get_weather: weather }).run([{ role: 'user', content: 'Oslo?' }]);
    expect(assistantOnTheWire(1)).toEqual({
      role: 'assistant',
      content: null,
      cache_marker: 'x1',
      reasoning_content: 'Oslo first.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      ],
    });
  });
});
