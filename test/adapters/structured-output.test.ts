import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.js';
import { InvalidRequestError } from '../../src/errors/invalid-request-error.js';
import type { ModelStreamEvent, ModelToolDefinition, ResponseFormat } from '../../src/model/model-adapter.js';
import { chunk, completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer } from './fake-openai-server.js';

let server: FakeOpenAIServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const weather: ModelToolDefinition = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const report: ResponseFormat = {
  type: 'json_schema',
  name: 'weather_report',
  description: 'The weather of one city',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' }, celsius: { type: 'number' } },
    required: ['city'],
  },
};

const answer = '{"city":"Paris","celsius":21}';

function bodyOf(index: number): Record<string, unknown> {
  return server.requests[index]!.body as Record<string, unknown>;
}

async function drain(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('OpenAIAdapter native structured output', () => {
  it('sends a call responseFormat as response_format json_schema beside the tools, and reads the JSON answer', async () => {
    server.enqueue({ type: 'json', body: completion({ content: answer }) });
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', client });
    expect(adapter.supportsResponseFormat).toBe(true);
    const response = await adapter.call([{ role: 'user', content: 'Paris?' }], [weather], {
      responseFormat: report,
    });
    expect(response.content).toBe(answer);
    expect(bodyOf(0)['tools']).toHaveLength(1);
    expect(bodyOf(0)['response_format']).toMatchInlineSnapshot(`
      {
        "json_schema": {
          "description": "The weather of one city",
          "name": "weather_report",
          "schema": {
            "properties": {
              "celsius": {
                "type": "number",
              },
              "city": {
                "type": "string",
              },
            },
            "required": [
              "city",
            ],
            "type": "object",
          },
          "strict": false,
        },
        "type": "json_schema",
      }
    `);
  });

  it('streams with a strict response format, its schema made strict the way strict tools are', async () => {
    server.enqueue({
      type: 'sse',
      items: [chunk({ role: 'assistant', content: answer }), chunk({}, { finish_reason: 'stop' })],
    });
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', client });
    const events = await drain(
      adapter.stream([{ role: 'user', content: 'Paris?' }], [weather], {
        responseFormat: { ...report, strict: true },
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: answer } });
    expect(bodyOf(0)['stream']).toBe(true);
    expect(bodyOf(0)['tools']).toHaveLength(1);
    expect(bodyOf(0)['response_format']).toMatchInlineSnapshot(`
      {
        "json_schema": {
          "description": "The weather of one city",
          "name": "weather_report",
          "schema": {
            "additionalProperties": false,
            "properties": {
              "celsius": {
                "type": [
                  "number",
                  "null",
                ],
              },
              "city": {
                "type": "string",
              },
            },
            "required": [
              "city",
              "celsius",
            ],
            "type": "object",
          },
          "strict": true,
        },
        "type": "json_schema",
      }
    `);
  });

  it('puts a call responseFormat in place of the adapter responseFormat option', async () => {
    server.enqueue({ type: 'json', body: completion({ content: answer }) });
    const adapter = new OpenAIAdapter({
      model: 'gpt-5-mini',
      client,
      responseFormat: { type: 'json_object' },
    });
    await adapter.call([{ role: 'user', content: 'Paris?' }], [], { responseFormat: report });
    expect(bodyOf(0)['response_format']).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'weather_report' },
    });
  });

  it('with nativeStructuredOutput: false, reports no support and sends no response_format for a call', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'ok' }) });
    const adapter = new OpenAIAdapter({ model: 'qwen3:8b', client, nativeStructuredOutput: false });
    expect(adapter.supportsResponseFormat).toBe(false);
    await adapter.call([{ role: 'user', content: 'Paris?' }], [weather], { responseFormat: report });
    expect(bodyOf(0)).not.toHaveProperty('response_format');
  });

  it.each<[string, ResponseFormat, string]>([
    [
      'a name with a space',
      { ...report, name: 'weather report' },
      'Invalid responseFormat.name ("weather report")',
    ],
    ['a name of 65 characters', { ...report, name: 'a'.repeat(65) }, 'Invalid responseFormat.name'],
    ['an empty name', { ...report, name: '' }, 'Invalid responseFormat.name ("")'],
    [
      'a schema that is not an object',
      { ...report, schema: true as never },
      'Invalid responseFormat.schema (true)',
    ],
    ['a schema that is an array', { ...report, schema: [] as never }, 'Invalid responseFormat.schema'],
    [
      'a strict schema with a free-form map',
      { ...report, strict: true, schema: { type: 'object', additionalProperties: { type: 'string' } } },
      'cannot be made strict',
    ],
  ])('refuses %s with an InvalidArgumentError before any request', async (_case, format, message) => {
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', client });
    const call = adapter.call([{ role: 'user', content: 'x' }], [], { responseFormat: format });
    await expect(call).rejects.toThrow(InvalidArgumentError);
    await expect(
      adapter.call([{ role: 'user', content: 'x' }], [], { responseFormat: format }),
    ).rejects.toThrow(message);
    await expect(
      drain(adapter.stream([{ role: 'user', content: 'x' }], [], { responseFormat: format })),
    ).rejects.toThrow(InvalidArgumentError);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a nativeStructuredOutput that is not a boolean', () => {
    expect(
      () => new OpenAIAdapter({ model: 'gpt-5-mini', client, nativeStructuredOutput: 'no' as never }),
    ).toThrow('Invalid nativeStructuredOutput ("no"): must be true or false');
  });

  it('meets the fake server that refuses a response_format OpenAI does not document, as OpenAI does', async () => {
    const adapter = new OpenAIAdapter({
      model: 'gpt-5-mini',
      client,
      extraBody: { response_format: { type: 'json_schema', name: 'flat', schema: { type: 'object' } } },
    });
    const call = adapter.call([{ role: 'user', content: 'x' }], []);
    await expect(call).rejects.toThrow(InvalidRequestError);
    await expect(adapter.call([{ role: 'user', content: 'x' }], [])).rejects.toThrow(
      "Unknown parameter: 'response_format.name'.",
    );
    const strictButOpen = new OpenAIAdapter({
      model: 'gpt-5-mini',
      client,
      extraBody: {
        response_format: {
          type: 'json_schema',
          json_schema: { name: report.name, schema: report.schema, strict: true },
        },
      },
    });
    await expect(strictButOpen.call([{ role: 'user', content: 'x' }], [])).rejects.toThrow(
      "'additionalProperties' is required to be supplied and to be false",
    );
  });
});

describe('DeepSeekAdapter structured output', () => {
  it('reports no native support, and sends no response_format for a call responseFormat', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'ok' }) });
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client });
    expect(adapter.supportsResponseFormat).toBe(false);
    await adapter.call([{ role: 'user', content: 'Paris?' }], [weather], { responseFormat: report });
    expect(bodyOf(0)).not.toHaveProperty('response_format');
  });
});
