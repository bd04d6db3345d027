import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.js';
import { MissingApiKeyError } from '../../src/errors/missing-api-key-error.js';
import type { ChatMessage } from '../../src/model/messages.js';
import type { ModelAdapter, ModelToolDefinition } from '../../src/model/model-adapter.js';
import { completion, startFakeOpenAIServer } from './fake-openai-server.js';
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

function toolCall(id: string, city: string) {
  return { id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } };
}

/** Plays what the orchestrator does: call, append the assistant message as received, answer the tools. */
async function playThreeToolTurnsThenUserTurn(adapter: ModelAdapter): Promise<ChatMessage[]> {
  server.enqueue(
    {
      type: 'json',
      body: completion({ reasoning_content: 'Paris first.', tool_calls: [toolCall('call_1', 'Paris')] }),
    },
    // The second tool turn carries no reasoning_content at all: it must come back as "".
    { type: 'json', body: completion({ tool_calls: [toolCall('call_2', 'Rome')] }) },
    {
      type: 'json',
      body: completion({ reasoning_content: 'Now Oslo.', tool_calls: [toolCall('call_3', 'Oslo')] }),
    },
    {
      type: 'json',
      body: completion({ reasoning_content: 'All three known.', content: 'Sunny everywhere.' }),
    },
    { type: 'json', body: completion({ reasoning_content: 'Tomorrow too.', content: 'Still sunny.' }) },
  );
  const messages: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris, Rome, Oslo?' }];
  for (let turn = 0; turn < 4; turn += 1) {
    const response = await adapter.call(messages, [weather]);
    messages.push({
      role: 'assistant',
      content: response.content,
      ...(response.tool_calls === undefined ? {} : { tool_calls: response.tool_calls }),
      ...(response.reasoning_content === undefined ? {} : { reasoning_content: response.reasoning_content }),
    });
    for (const call of response.tool_calls ?? [])
      messages.push({ role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' });
  }
  messages.push({ role: 'user', content: 'And tomorrow?' });
  await adapter.call(messages, [weather]);
  return messages;
}

describe('reasoning_content round trip', () => {
  it('DeepSeek replays every earlier assistant reasoning_content exactly, "" when there was none', async () => {
    await playThreeToolTurnsThenUserTurn(new DeepSeekAdapter({ model: 'deepseek-v4-pro', client }));
    expect(server.requests).toHaveLength(5);
    expect(server.requests[4]?.body).toMatchInlineSnapshot(`
      {
        "messages": [
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
            "content": "{"sky":"sunny"}",
            "role": "tool",
            "tool_call_id": "call_1",
          },
          {
            "content": null,
            "reasoning_content": "",
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
            "content": "{"sky":"sunny"}",
            "role": "tool",
            "tool_call_id": "call_2",
          },
          {
            "content": null,
            "reasoning_content": "Now Oslo.",
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
            "content": "{"sky":"sunny"}",
            "role": "tool",
            "tool_call_id": "call_3",
          },
          {
            "content": "Sunny everywhere.",
            "reasoning_content": "All three known.",
            "role": "assistant",
          },
          {
            "content": "And tomorrow?",
            "role": "user",
          },
        ],
        "model": "deepseek-v4-pro",
        "thinking": {
          "type": "enabled",
        },
        "tools": [
          {
            "function": {
              "description": "Weather of a city",
              "name": "get_weather",
              "parameters": {
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
            },
            "type": "function",
          },
        ],
      }
    `);
  });

  it('DeepSeek keeps reasoning only on tool-call turns with reasoningReplay: "tool_turns"', async () => {
    await playThreeToolTurnsThenUserTurn(
      new DeepSeekAdapter({ model: 'deepseek-v4-pro', client, reasoningReplay: 'tool_turns' }),
    );
    const assistants = (
      server.requests[4]?.body as { messages: Array<Record<string, unknown>> }
    ).messages.filter((message) => message['role'] === 'assistant');
    expect(assistants.map((message) => message['reasoning_content'])).toEqual([
      'Paris first.',
      '',
      'Now Oslo.',
      undefined,
    ]);
  });

  it('DeepSeek sends no reasoning_content in a request without tools by default', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'ok' }) });
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client });
    await adapter.call(
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello', reasoning_content: 'greet' },
        { role: 'user', content: 'bye' },
      ],
      [],
    );
    expect(JSON.stringify(server.requests[0]?.body)).not.toContain('reasoning_content');
  });

  it('OpenAIAdapter strips reasoning_content from every message it sends', async () => {
    const messages = await playThreeToolTurnsThenUserTurn(new OpenAIAdapter({ model: 'gpt-5-mini', client }));
    expect(
      messages.filter((message) => message.role === 'assistant' && message.reasoning_content !== undefined),
    ).toHaveLength(3);
    for (const request of server.requests)
      expect(JSON.stringify(request.body)).not.toContain('reasoning_content');
  });
});

describe('request options', () => {
  it('sends thinking explicitly, sampling parameters, tool_choice, parallel_tool_calls and extraBody', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'ok' }) });
    const adapter = new DeepSeekAdapter({
      model: 'deepseek-v4-flash',
      client,
      thinking: 'disabled',
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
      parallelToolCalls: false,
      temperature: 0.2,
      maxTokens: 512,
      responseFormat: { type: 'json_object' },
      extraBody: { user_id: 'u-1' },
    });
    await adapter.call([{ role: 'user', content: 'Paris?' }], [weather]);
    expect(server.requests[0]?.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 512,
        "messages": [
          {
            "content": "Paris?",
            "role": "user",
          },
        ],
        "model": "deepseek-v4-flash",
        "parallel_tool_calls": false,
        "response_format": {
          "type": "json_object",
        },
        "temperature": 0.2,
        "thinking": {
          "type": "disabled",
        },
        "tool_choice": {
          "function": {
            "name": "get_weather",
          },
          "type": "function",
        },
        "tools": [
          {
            "function": {
              "description": "Weather of a city",
              "name": "get_weather",
              "parameters": {
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
            },
            "type": "function",
          },
        ],
        "user_id": "u-1",
      }
    `);
  });

  it('a call-level toolChoice wins, and tool_choice is not sent without tools', async () => {
    server.enqueue(
      { type: 'json', body: completion({ content: 'a' }) },
      { type: 'json', body: completion({ content: 'b' }) },
    );
    const adapter = new OpenAIAdapter({
      model: 'gpt-5-mini',
      client,
      toolChoice: 'required',
      parallelToolCalls: true,
    });
    await adapter.call([{ role: 'user', content: 'x' }], [weather], { toolChoice: 'none' });
    await adapter.call([{ role: 'user', content: 'x' }], [], { toolChoice: 'none' });
    expect(server.requests.map((request) => request.body)).toMatchInlineSnapshot(`
      [
        {
          "messages": [
            {
              "content": "x",
              "role": "user",
            },
          ],
          "model": "gpt-5-mini",
          "parallel_tool_calls": true,
          "tool_choice": "none",
          "tools": [
            {
              "function": {
                "description": "Weather of a city",
                "name": "get_weather",
                "parameters": {
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
              },
              "type": "function",
            },
          ],
        },
        {
          "messages": [
            {
              "content": "x",
              "role": "user",
            },
          ],
          "model": "gpt-5-mini",
        },
      ]
    `);
  });

  it('sends thinking enabled by default and fails early on a forced tool or json_schema in thinking mode', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'ok' }) });
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-pro', client });
    await adapter.call([{ role: 'user', content: 'x' }], [weather]);
    expect((server.requests[0]?.body as Record<string, unknown>)['thinking']).toEqual({ type: 'enabled' });
    await expect(
      adapter.call([{ role: 'user', content: 'x' }], [weather], { toolChoice: 'required' }),
    ).rejects.toThrow(/toolChoice \("required"\): DeepSeek rejects a forced tool in thinking mode/);
    expect(
      () =>
        new DeepSeekAdapter({
          model: 'deepseek-v4-pro',
          client,
          toolChoice: { type: 'function', function: { name: 'get_weather' } },
        }),
    ).toThrow(InvalidArgumentError);
    expect(
      () =>
        new DeepSeekAdapter({
          model: 'deepseek-v4-pro',
          client,
          responseFormat: {
            type: 'json_schema',
            json_schema: { name: 'answer', schema: { type: 'object' } },
          },
        }),
    ).toThrow(/json_schema in thinking mode/);
    expect(server.requests).toHaveLength(1);
  });

  it('converts tools to strict form when asked, per adapter or per tool', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'ok' }) });
    const search: ModelToolDefinition = {
      type: 'function',
      function: {
        name: 'search',
        description: 'Search',
        parameters: {
          type: 'object',
          properties: {
            query: { type: 'string' },
            limit: { type: 'integer', description: 'At most this many' },
            filter: { type: 'object', properties: { language: { type: 'string', enum: ['ts', 'py'] } } },
          },
          required: ['query'],
        },
      },
    };
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', client, strictTools: true });
    await adapter.call(
      [{ role: 'user', content: 'x' }],
      [search, { ...weather, function: { ...weather.function, strict: false } }],
    );
    expect((server.requests[0]?.body as Record<string, unknown>)['tools']).toMatchInlineSnapshot(`
      [
        {
          "function": {
            "description": "Search",
            "name": "search",
            "parameters": {
              "additionalProperties": false,
              "properties": {
                "filter": {
                  "additionalProperties": false,
                  "properties": {
                    "language": {
                      "anyOf": [
                        {
                          "enum": [
                            "ts",
                            "py",
                          ],
                          "type": "string",
                        },
                        {
                          "type": "null",
                        },
                      ],
                    },
                  },
                  "required": [
                    "language",
                  ],
                  "type": [
                    "object",
                    "null",
                  ],
                },
                "limit": {
                  "description": "At most this many",
                  "type": [
                    "integer",
                    "null",
                  ],
                },
                "query": {
                  "type": "string",
                },
              },
              "required": [
                "query",
                "limit",
                "filter",
              ],
              "type": "object",
            },
            "strict": true,
          },
          "type": "function",
        },
        {
          "function": {
            "description": "Weather of a city",
            "name": "get_weather",
            "parameters": {
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
          },
          "type": "function",
        },
      ]
    `);
  });
});

describe('construction', () => {
  it('names the environment variable when there is no API key', async () => {
    const saved = { openai: process.env['OPENAI_API_KEY'], deepseek: process.env['DEEPSEEK_API_KEY'] };
    delete process.env['OPENAI_API_KEY'];
    delete process.env['DEEPSEEK_API_KEY'];
    try {
      expect(() => new OpenAIAdapter({ model: 'gpt-5-mini' })).toThrow(MissingApiKeyError);
      expect(() => new OpenAIAdapter({ model: 'gpt-5-mini' })).toThrow(/OPENAI_API_KEY is not set/);
      expect(() => new DeepSeekAdapter({ model: 'deepseek-v4-flash' })).toThrow(
        /DEEPSEEK_API_KEY is not set/,
      );
      const withKey = new DeepSeekAdapter({ model: 'deepseek-v4-flash', apiKey: 'key' });
      expect(((await withKey.getClient()) as OpenAI).baseURL).toBe('https://api.deepseek.com');
      process.env['DEEPSEEK_API_KEY'] = 'from-env';
      // Read when the adapter is made, not when it builds its client.
      const fromEnvironment = new DeepSeekAdapter({ model: 'deepseek-v4-flash' });
      delete process.env['DEEPSEEK_API_KEY'];
      expect(((await fromEnvironment.getClient()) as OpenAI).apiKey).toBe('from-env');
    } finally {
      for (const [name, value] of [
        ['OPENAI_API_KEY', saved.openai],
        ['DEEPSEEK_API_KEY', saved.deepseek],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("sends the provider's key variable only to the provider's host, never to another baseURL", async () => {
    const saved = { openai: process.env['OPENAI_API_KEY'], deepseek: process.env['DEEPSEEK_API_KEY'] };
    process.env['OPENAI_API_KEY'] = 'sk-openai-from-env';
    process.env['DEEPSEEK_API_KEY'] = 'sk-deepseek-from-env';
    const fake = await startFakeOpenAIServer();
    try {
      // OpenRouter's example with OPENROUTER_API_KEY unset: the OpenAI key must not go there.
      const foreign = () =>
        new OpenAIAdapter({ model: 'x', baseURL: 'https://openrouter.ai/api/v1', apiKey: undefined });
      expect(foreign).toThrow(MissingApiKeyError);
      expect(foreign).toThrow(
        "No API key for https://openrouter.ai: apiKey is not set, and OPENAI_API_KEY is only sent to openai's own host, never to another server.",
      );
      expect(() => new DeepSeekAdapter({ model: 'deepseek-v4-flash', baseURL: fake.baseURL })).toThrow(
        /DEEPSEEK_API_KEY is only sent to deepseek's own host/,
      );
      // Given explicitly, a key goes where it is told; the variable never does.
      fake.enqueue({ type: 'json', body: completion({ content: 'hi' }) });
      const local = new OpenAIAdapter({ model: 'x', baseURL: fake.baseURL, apiKey: 'none' });
      await local.call([{ role: 'user', content: 'hi' }], []);
      expect(fake.requests[0]!.headers['authorization']).toBe('Bearer none');
      expect(JSON.stringify(fake.requests)).not.toContain('from-env');
      // The provider's own host (any path, any letter case) takes the variable.
      const own = new OpenAIAdapter({ model: 'x', baseURL: 'https://API.openai.com/v1' });
      expect(((await own.getClient()) as OpenAI).apiKey).toBe('sk-openai-from-env');
      const beta = new DeepSeekAdapter({
        model: 'deepseek-v4-flash',
        baseURL: 'https://api.deepseek.com/beta',
      });
      expect(((await beta.getClient()) as OpenAI).apiKey).toBe('sk-deepseek-from-env');
    } finally {
      await fake.close();
      for (const [name, value] of [
        ['OPENAI_API_KEY', saved.openai],
        ['DEEPSEEK_API_KEY', saved.deepseek],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('rejects an empty model name', () => {
    expect(() => new OpenAIAdapter({ model: '', client })).toThrow(/Invalid model/);
  });

  it('sends the API key and extra headers to the server', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'ok' }) });
    const adapter = new OpenAIAdapter({
      model: 'm',
      apiKey: 'sk-local',
      baseURL: server.baseURL,
      headers: { 'x-team': 'core' },
    });
    expect(await adapter.call([{ role: 'user', content: 'x' }], [])).toMatchObject({ content: 'ok' });
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-local');
    expect(server.requests[0]?.headers['x-team']).toBe('core');
  });
});
