import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import type { AnthropicAdapterOptions } from '../../../src/adapters/anthropic/index.js';
import { InvalidArgumentError } from '../../../src/errors/invalid-argument-error.js';
import { InvalidRequestError } from '../../../src/errors/invalid-request-error.js';
import type {
  ModelStreamEvent,
  ModelToolDefinition,
  ResponseFormat,
} from '../../../src/model/model-adapter.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let client: Anthropic;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
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

/** A schema as zod writes it, with a constraint Claude cannot enforce and an open nested object. */
const report: ResponseFormat = {
  type: 'json_schema',
  name: 'weather_report',
  description: 'The weather of one city',
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      city: { type: 'string' },
      celsius: { type: 'number', minimum: -90 },
      wind: { type: 'object', properties: { speed: { type: 'number' } } },
    },
    required: ['city', 'celsius'],
  },
};

const answer = '{"city":"Paris","celsius":21}';

function adapter(options: Partial<AnthropicAdapterOptions> = {}): AnthropicAdapter {
  return new AnthropicAdapter({ model: 'claude-sonnet-4-6', client, cache: false, ...options });
}

async function drain(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('AnthropicAdapter native structured output', () => {
  it('sends a call responseFormat as output_config.format beside the tools, in the subset Claude takes, and reads the JSON answer', async () => {
    server.enqueue({ type: 'turn', content: [{ type: 'text', text: answer }] });
    const claude = adapter();
    expect(claude.supportsResponseFormat).toBe(true);
    const response = await claude.call([{ role: 'user', content: 'Paris?' }], [weather], {
      responseFormat: report,
    });
    expect(server.requests[0]!.status).toBe(200);
    expect(response.content).toBe(answer);
    expect(server.requests[0]!.body['tools']).toHaveLength(1);
    expect(server.requests[0]!.body['output_config']).toMatchInlineSnapshot(`
      {
        "format": {
          "schema": {
            "additionalProperties": false,
            "properties": {
              "celsius": {
                "description": "{minimum: -90}",
                "type": "number",
              },
              "city": {
                "type": "string",
              },
              "wind": {
                "additionalProperties": false,
                "properties": {
                  "speed": {
                    "type": "number",
                  },
                },
                "type": "object",
              },
            },
            "required": [
              "city",
              "celsius",
            ],
            "type": "object",
          },
          "type": "json_schema",
        },
      }
    `);
  });

  it('streams with the same output_config, merged into an output_config of extraBody, with thinking on', async () => {
    server.enqueue({
      type: 'turn',
      content: [
        { type: 'thinking', thinking: 'Paris, then.' },
        { type: 'text', text: answer },
      ],
    });
    const claude = adapter({
      thinking: { type: 'enabled', budgetTokens: 1024 },
      maxTokens: 4096,
      extraBody: { output_config: { effort: 'low' } },
    });
    const events = await drain(
      claude.stream([{ role: 'user', content: 'Paris?' }], [weather], { responseFormat: report }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: answer } });
    const body = server.requests[0]!.body;
    expect(body['stream']).toBe(true);
    expect(body['tools']).toHaveLength(1);
    expect(body['output_config']).toMatchObject({ effort: 'low', format: { type: 'json_schema' } });
    expect(Object.keys(body['output_config'] as object)).toEqual(['effort', 'format']);
  });

  it('with nativeStructuredOutput: false, reports no support and sends no output_config for a call', async () => {
    server.enqueue({ type: 'turn', content: [{ type: 'text', text: 'ok' }] });
    const claude = adapter({ nativeStructuredOutput: false });
    expect(claude.supportsResponseFormat).toBe(false);
    await claude.call([{ role: 'user', content: 'Paris?' }], [weather], { responseFormat: report });
    expect(server.requests[0]!.body).not.toHaveProperty('output_config');
  });

  it('is off by default for a model Anthropic documents without structured outputs, which answers 400 when it is forced on', async () => {
    expect(adapter({ model: 'claude-3-5-haiku-20241022' }).supportsResponseFormat).toBe(false);
    expect(adapter({ model: 'claude-opus-4-1-20250805' }).supportsResponseFormat).toBe(false);
    expect(adapter({ model: 'claude-sonnet-4-5-20250929' }).supportsResponseFormat).toBe(true);
    const forced = adapter({ model: 'claude-3-5-haiku-20241022', nativeStructuredOutput: true });
    expect(forced.supportsResponseFormat).toBe(true);
    const call = forced.call([{ role: 'user', content: 'Paris?' }], [], { responseFormat: report });
    await expect(call).rejects.toThrow(InvalidRequestError);
    expect(server.requests[0]!.refusal).toBe("'claude-3-5-haiku-20241022' does not support output format.");
  });

  it.each<[string, ResponseFormat, string]>([
    ['a bad name', { ...report, name: 'weather/report' }, 'Invalid responseFormat.name ("weather/report")'],
    [
      'a schema that is not an object',
      { ...report, schema: null as never },
      'Invalid responseFormat.schema (null)',
    ],
    [
      'a root that is not an object schema',
      { ...report, schema: { type: 'array', items: { type: 'string' } } },
      "Claude's structured outputs answer with an object",
    ],
    [
      'a map',
      {
        ...report,
        schema: {
          type: 'object',
          properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } },
        },
      },
      'Invalid responseFormat.schema.properties.tags.additionalProperties',
    ],
    [
      'a property without a type',
      { ...report, schema: { type: 'object', properties: { anything: {} } } },
      "cannot be sent as Claude's structured output",
    ],
  ])('refuses %s with an InvalidArgumentError before any request', async (_case, format, message) => {
    const claude = adapter();
    await expect(
      claude.call([{ role: 'user', content: 'x' }], [], { responseFormat: format }),
    ).rejects.toThrow(InvalidArgumentError);
    await expect(
      drain(claude.stream([{ role: 'user', content: 'x' }], [], { responseFormat: format })),
    ).rejects.toThrow(message);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a nativeStructuredOutput that is not a boolean', () => {
    expect(() => adapter({ nativeStructuredOutput: 'auto' as never })).toThrow(
      'Invalid nativeStructuredOutput ("auto")',
    );
  });

  it('meets the fake server that refuses an output_config Anthropic does not document, as Anthropic does', async () => {
    const named = adapter({
      extraBody: {
        output_config: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' } } },
      },
    });
    await expect(named.call([{ role: 'user', content: 'x' }], [])).rejects.toThrow(InvalidRequestError);
    expect(server.requests[0]!.refusal).toBe('output_config.format.name: Extra inputs are not permitted');
    const open = adapter({
      extraBody: {
        output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {} } } },
      },
    });
    await expect(open.call([{ role: 'user', content: 'x' }], [])).rejects.toThrow(InvalidRequestError);
    expect(server.requests[1]!.refusal).toBe(
      "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false",
    );
  });
});
