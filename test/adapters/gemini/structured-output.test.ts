import { GoogleGenAI } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeminiAdapter } from '../../../src/adapters/gemini/index.js';
import type { GeminiAdapterOptions } from '../../../src/adapters/gemini/index.js';
import { InvalidArgumentError } from '../../../src/errors/invalid-argument-error.js';
import { InvalidRequestError } from '../../../src/errors/invalid-request-error.js';
import type {
  ModelStreamEvent,
  ModelToolDefinition,
  ResponseFormat,
} from '../../../src/model/model-adapter.js';
import { startFakeGeminiServer } from './fake-gemini-server.js';
import type { FakeGeminiServer } from './fake-gemini-server.js';

let server: FakeGeminiServer;
let client: GoogleGenAI;
beforeEach(async () => {
  server = await startFakeGeminiServer();
  client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.baseURL } });
});
afterEach(() => server.close());

function adapter(options: Partial<GeminiAdapterOptions> = {}): GeminiAdapter {
  return new GeminiAdapter({
    model: 'gemini-3-flash-preview',
    client,
    timeout: 5000,
    maxRetries: 0,
    ...options,
  });
}

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
    $schema: 'https://json-schema.org/draft/2020-12/schema',
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

describe('GeminiAdapter native structured output', () => {
  it('sends a call responseFormat as responseMimeType and responseJsonSchema beside the function declarations, and reads the JSON answer', async () => {
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: answer }] });
    const gemini = adapter({ temperature: 0.2 });
    expect(gemini.supportsResponseFormat).toBe(true);
    const response = await gemini.call([{ role: 'user', content: 'Paris?' }], [weather], {
      responseFormat: report,
    });
    expect(server.requests[0]!.status).toBe(200);
    expect(response.content).toBe(answer);
    expect(server.requests[0]!.body['tools']).toHaveLength(1);
    expect(server.requests[0]!.body['generationConfig']).toMatchInlineSnapshot(`
      {
        "responseJsonSchema": {
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
        "responseMimeType": "application/json",
        "temperature": 0.2,
      }
    `);
  });

  it('streams with the same generationConfig', async () => {
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: answer }] });
    const events = await drain(
      adapter().stream([{ role: 'user', content: 'Paris?' }], [weather], { responseFormat: report }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: answer } });
    expect(server.requests[0]!.url).toContain(':streamGenerateContent');
    expect(server.requests[0]!.body['tools']).toHaveLength(1);
    expect(server.requests[0]!.body['generationConfig']).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, celsius: { type: 'number' } },
        required: ['city'],
      },
    });
  });

  it('is off by default before Gemini 3, whose API refuses a JSON answer with function declarations, and on when asked', async () => {
    expect(adapter({ model: 'gemini-2.5-flash' }).supportsResponseFormat).toBe(false);
    expect(adapter({ model: 'gemini-flash-latest' }).supportsResponseFormat).toBe(false);
    expect(adapter({ model: 'gemini-3.1-pro-preview' }).supportsResponseFormat).toBe(true);
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: 'ok' }] });
    await adapter({ model: 'gemini-2.5-flash' }).call([{ role: 'user', content: 'Paris?' }], [weather], {
      responseFormat: report,
    });
    expect(server.requests[0]!.body['generationConfig'] ?? {}).toEqual({});
    const forced = adapter({ model: 'gemini-2.5-flash', nativeStructuredOutput: true });
    await expect(
      forced.call([{ role: 'user', content: 'Paris?' }], [weather], { responseFormat: report }),
    ).rejects.toThrow(InvalidRequestError);
    expect(server.requests[1]!.refusal).toBe(
      "Tool use with a response mime type: 'application/json' is unsupported",
    );
  });

  it('with nativeStructuredOutput: false, reports no support and sends no response schema for a call', async () => {
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: 'ok' }] });
    const gemini = adapter({ nativeStructuredOutput: false, maxOutputTokens: 100 });
    expect(gemini.supportsResponseFormat).toBe(false);
    await gemini.call([{ role: 'user', content: 'Paris?' }], [weather], { responseFormat: report });
    expect(server.requests[0]!.body['generationConfig']).toEqual({ maxOutputTokens: 100 });
  });

  it('refuses a bad name or schema, and a nativeStructuredOutput that is not a boolean, before any request', async () => {
    const gemini = adapter();
    await expect(
      gemini.call([{ role: 'user', content: 'x' }], [], {
        responseFormat: { ...report, name: 'x'.repeat(65) },
      }),
    ).rejects.toThrow(InvalidArgumentError);
    await expect(
      drain(
        gemini.stream([{ role: 'user', content: 'x' }], [], {
          responseFormat: { ...report, schema: 42 as never },
        }),
      ),
    ).rejects.toThrow('Invalid responseFormat.schema (42)');
    expect(() => adapter({ nativeStructuredOutput: 'yes' as never })).toThrow(
      'Invalid nativeStructuredOutput ("yes")',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('meets the fake server that refuses a response schema without the JSON mime type, as Gemini does', async () => {
    await expect(
      client.models.generateContent({
        model: 'gemini-3-flash-preview',
        contents: 'Paris?',
        config: { responseJsonSchema: { type: 'object' }, httpOptions: { retryOptions: { attempts: 1 } } },
      }),
    ).rejects.toThrow('a response schema needs response_mime_type application/json');
    expect(server.requests[0]!.status).toBe(400);
  });
});
