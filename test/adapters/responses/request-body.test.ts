import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIResponsesAdapter } from '../../../src/adapters/openai/index.js';
import type { OpenAIResponsesAdapterOptions } from '../../../src/adapters/openai/index.js';
import { InvalidArgumentError } from '../../../src/errors/invalid-argument-error.js';
import type { ModelToolDefinition } from '../../../src/model/model-adapter.js';
import { startFakeResponsesServer } from './fake-responses-server.js';
import type { FakeResponsesServer } from './fake-responses-server.js';

let server: FakeResponsesServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeResponsesServer();
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const tools: ModelToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

describe('the request body of OpenAIResponsesAdapter', () => {
  it('sends every option in its Responses form, at POST /v1/responses', async () => {
    server.enqueue({ type: 'turn', output: [{ type: 'message', text: 'ok' }] });
    const adapter = new OpenAIResponsesAdapter({
      model: 'gpt-5-mini',
      client,
      reasoning: { effort: 'low', summary: 'auto' },
      text: { verbosity: 'low' },
      maxOutputTokens: 2048,
      parallelToolCalls: false,
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
      promptCacheKey: 'session-42',
      serviceTier: 'flex',
      strictTools: true,
      extraBody: { metadata: { run: 'r1' } },
    });
    await adapter.call([{ role: 'user', content: 'Paris?' }], tools);
    expect(server.requests[0]!.path).toBe('/v1/responses');
    expect(server.requests[0]!.body).toMatchInlineSnapshot(`
      {
        "include": [
          "reasoning.encrypted_content",
        ],
        "input": [
          {
            "content": "Paris?",
            "role": "user",
          },
        ],
        "max_output_tokens": 2048,
        "metadata": {
          "run": "r1",
        },
        "model": "gpt-5-mini",
        "parallel_tool_calls": false,
        "prompt_cache_key": "session-42",
        "reasoning": {
          "effort": "low",
          "summary": "auto",
        },
        "service_tier": "flex",
        "store": false,
        "text": {
          "verbosity": "low",
        },
        "tool_choice": {
          "name": "get_weather",
          "type": "function",
        },
        "tools": [
          {
            "description": "Weather of a city",
            "name": "get_weather",
            "parameters": {
              "additionalProperties": false,
              "properties": {
                "city": {
                  "type": "string",
                },
              },
              "required": [
                "city",
              ],
              "type": "object",
            },
            "strict": true,
            "type": "function",
          },
        ],
      }
    `);
  });

  it("sends a non-strict tool with strict: false (Responses' default is strict), and a call's tool choice over the option", async () => {
    server.enqueue({ type: 'turn', output: [{ type: 'message', text: 'ok' }] });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, toolChoice: 'required' });
    await adapter.call([{ role: 'user', content: 'Paris?' }], tools, { toolChoice: 'none' });
    const body = server.requests[0]!.body;
    expect(body['tool_choice']).toBe('none');
    expect((body['tools'] as Record<string, unknown>[])[0]!['strict']).toBe(false);
    expect(body['stream']).toBeUndefined();
  });

  it.each<[string, Partial<OpenAIResponsesAdapterOptions>, string]>([
    ['previousResponseId without store', { previousResponseId: true }, 'needs store: true'],
    ['store not a boolean', { store: 'yes' as never }, 'must be true or false'],
    ['maxOutputTokens not a positive integer', { maxOutputTokens: 0 }, 'must be a positive integer'],
    ['promptCacheKey empty', { promptCacheKey: '' }, 'must be a non-empty string'],
    ['reasoning not an object', { reasoning: 'high' as never }, "e.g. { effort: 'low', summary: 'auto' }"],
  ])('refuses %s with an InvalidArgumentError naming the option', (_case, options, message) => {
    const create = (): OpenAIResponsesAdapter =>
      new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, ...options });
    expect(create).toThrow(InvalidArgumentError);
    expect(create).toThrow(message);
  });

  it('is the openai provider, keeps its data under openai.responses, and knows the model window', () => {
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    expect([adapter.provider, adapter.providerDataKey, adapter.contextWindowTokens]).toEqual([
      'openai',
      'openai.responses',
      400_000,
    ]);
  });
});

describe('content parts in a Responses request', () => {
  it('sends user parts as input_text, input_image and input_file, and a tool result with parts as function_call_output parts', async () => {
    server.enqueue({ type: 'turn', output: [{ type: 'message', text: 'ok' }] });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    await adapter.call(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
            { type: 'image', url: 'https://example.com/a.jpg' },
            { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
            { type: 'file', url: 'https://example.com/b.pdf', mediaType: 'application/pdf' },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: [
            { type: 'text', text: 'A chart:' },
            { type: 'image', data: 'R0lGODlh', mediaType: 'image/gif' },
          ],
        },
      ],
      tools,
    );
    const input = (server.requests[0]!.body as { input: unknown[] }).input;
    expect(input[0]).toEqual({
      role: 'user',
      content: [
        { type: 'input_text', text: 'What is in these?' },
        { type: 'input_image', detail: 'auto', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
        { type: 'input_image', detail: 'auto', image_url: 'https://example.com/a.jpg' },
        { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
        { type: 'input_file', file_url: 'https://example.com/b.pdf' },
      ],
    });
    expect(input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'A chart:' },
        { type: 'input_image', detail: 'auto', image_url: 'data:image/gif;base64,R0lGODlh' },
      ],
    });
  });
});
