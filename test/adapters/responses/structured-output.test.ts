import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIResponsesAdapter } from '../../../src/adapters/openai/index.js';
import { InvalidArgumentError } from '../../../src/errors/invalid-argument-error.js';
import { InvalidRequestError } from '../../../src/errors/invalid-request-error.js';
import type {
  ModelStreamEvent,
  ModelToolDefinition,
  ResponseFormat,
} from '../../../src/model/model-adapter.js';
import { startFakeResponsesServer } from './fake-responses-server.js';
import type { FakeResponsesServer } from './fake-responses-server.js';

let server: FakeResponsesServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeResponsesServer();
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

async function drain(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('OpenAIResponsesAdapter native structured output', () => {
  it('sends a call responseFormat as text.format beside the text option and the tools, and reads the JSON answer', async () => {
    server.enqueue({ type: 'turn', output: [{ type: 'message', text: answer }] });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, text: { verbosity: 'low' } });
    expect(adapter.supportsResponseFormat).toBe(true);
    const response = await adapter.call([{ role: 'user', content: 'Paris?' }], [weather], {
      responseFormat: report,
    });
    expect(response.content).toBe(answer);
    expect(server.requests[0]!.body['tools']).toHaveLength(1);
    expect(server.requests[0]!.body['text']).toMatchInlineSnapshot(`
      {
        "format": {
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
          "type": "json_schema",
        },
        "verbosity": "low",
      }
    `);
  });

  it('streams with a strict response format, its schema made strict the way strict tools are', async () => {
    server.enqueue({ type: 'turn', output: [{ type: 'message', text: answer }] });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    const events = await drain(
      adapter.stream([{ role: 'user', content: 'Paris?' }], [weather], {
        responseFormat: { ...report, strict: true },
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: answer } });
    expect(server.requests[0]!.body['stream']).toBe(true);
    expect(server.requests[0]!.body['tools']).toHaveLength(1);
    expect(server.requests[0]!.body['text']).toMatchInlineSnapshot(`
      {
        "format": {
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
          "type": "json_schema",
        },
      }
    `);
  });

  it('with nativeStructuredOutput: false, reports no support and sends no text.format for a call', async () => {
    server.enqueue({ type: 'turn', output: [{ type: 'message', text: 'ok' }] });
    const adapter = new OpenAIResponsesAdapter({
      model: 'gpt-5-mini',
      client,
      text: { verbosity: 'low' },
      nativeStructuredOutput: false,
    });
    expect(adapter.supportsResponseFormat).toBe(false);
    await adapter.call([{ role: 'user', content: 'Paris?' }], [weather], { responseFormat: report });
    expect(server.requests[0]!.body['text']).toEqual({ verbosity: 'low' });
  });

  it('refuses a bad name or schema, and a nativeStructuredOutput that is not a boolean, before any request', async () => {
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
    await expect(
      adapter.call([{ role: 'user', content: 'x' }], [], { responseFormat: { ...report, name: 'a.b' } }),
    ).rejects.toThrow('Invalid responseFormat.name ("a.b")');
    await expect(
      drain(
        adapter.stream([{ role: 'user', content: 'x' }], [], {
          responseFormat: { ...report, schema: 'object' as never },
        }),
      ),
    ).rejects.toThrow(InvalidArgumentError);
    expect(
      () => new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, nativeStructuredOutput: 1 as never }),
    ).toThrow('Invalid nativeStructuredOutput (1)');
    expect(server.requests).toHaveLength(0);
  });

  it('meets the fake server that refuses the Chat Completions shape in text.format, as OpenAI does', async () => {
    const adapter = new OpenAIResponsesAdapter({
      model: 'gpt-5-mini',
      client,
      extraBody: {
        text: { format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } } },
      },
    });
    const call = adapter.call([{ role: 'user', content: 'x' }], []);
    await expect(call).rejects.toThrow(InvalidRequestError);
    await expect(adapter.call([{ role: 'user', content: 'x' }], [])).rejects.toThrow(
      "Missing required parameter: 'text.format.schema'.",
    );
  });
});
