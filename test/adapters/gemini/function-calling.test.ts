import { GoogleGenAI } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GeminiAdapter } from '../../../src/adapters/gemini/index.js';
import type { GeminiAdapterOptions } from '../../../src/adapters/gemini/index.js';
import { InvalidArgumentError } from '../../../src/errors/invalid-argument-error.js';
import type { ChatMessage } from '../../../src/model/messages.js';
import type { ModelToolDefinition, ToolChoice } from '../../../src/model/model-adapter.js';
import { defineTool } from '../../../src/tools/define-tool.js';
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
  return new GeminiAdapter({ model: 'gemini-2.5-flash', client, timeout: 5000, ...options });
}

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file',
  parameters: z.object({ path: z.string(), encoding: z.enum(['utf8', 'base64']).optional() }),
  execute: ({ path }) => `contents of ${path}`,
});
const tool: ModelToolDefinition = {
  type: 'function',
  function: { name: 'read_file', description: 'Read a file', parameters: readFile.inputSchema },
};
const user: ChatMessage[] = [{ role: 'user', content: 'Hi' }];
const hello = { type: 'turn', parts: [{ type: 'text', text: 'Hello!' }] } as const;

describe('GeminiAdapter requests', () => {
  it('sends the system prompt as systemInstruction, tools as functionDeclarations with their JSON Schema, and the thinking options', async () => {
    server.enqueue(hello);
    await adapter({
      thinking: { thinkingBudget: 1024, includeThoughts: true },
      maxOutputTokens: 2000,
      temperature: 0.2,
    }).call([{ role: 'system', content: 'Be terse.' }, ...user], [tool]);
    const body = server.requests[0]!.body;
    expect(body['systemInstruction']).toEqual({ parts: [{ text: 'Be terse.' }] });
    expect(body['contents']).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
    const { $schema: _schema, ...schema } = readFile.inputSchema;
    expect(body['tools']).toEqual([
      {
        functionDeclarations: [
          { name: 'read_file', description: 'Read a file', parametersJsonSchema: schema },
        ],
      },
    ]);
    expect(body['generationConfig']).toEqual({
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      maxOutputTokens: 2000,
      temperature: 0.2,
    });
  });

  const choices: readonly [ToolChoice, Record<string, unknown>][] = [
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [
      { type: 'function', function: { name: 'read_file' } },
      { mode: 'ANY', allowedFunctionNames: ['read_file'] },
    ],
  ];
  for (const [choice, config] of choices) {
    it(`sends toolChoice ${JSON.stringify(choice)} as functionCallingConfig ${JSON.stringify(config)}`, async () => {
      server.enqueue(hello);
      await adapter().call(user, [tool], { toolChoice: choice });
      expect(server.requests[0]!.body['toolConfig']).toEqual({ functionCallingConfig: config });
    });
  }

  it('refuses, naming the tool and the keyword, a schema Gemini cannot express', async () => {
    const odd: ModelToolDefinition = {
      type: 'function',
      function: {
        name: 'odd',
        description: 'Odd',
        parameters: { type: 'object', properties: { n: { type: 'number', not: { const: 3 } } } },
      },
    };
    const failure = await adapter()
      .call(user, [odd])
      .catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(InvalidArgumentError);
    expect((failure as Error).message).toContain('tools.odd.parameters.properties.n.not');
    expect((failure as Error).message).toContain("'not'");
    expect(server.requests).toHaveLength(0);
  });

  it('sends images: base64 and data: URLs as inlineData, other URLs as fileData, a tool result image after its response', async () => {
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: 'A cat.' }] });
    const response = await adapter().call(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', data: 'iVBOR', mediaType: 'image/png' },
            { type: 'image', url: 'data:image/jpeg;base64,/9j/4A' },
            { type: 'image', url: 'https://example.com/cat.webp', mediaType: 'image/webp' },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shot', arguments: '{}' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: [
            { type: 'text', text: 'screen' },
            { type: 'image', data: 'QUJD', mediaType: 'image/png' },
          ],
        },
      ],
      [],
    );
    expect(response.content).toBe('A cat.');
    expect(server.requests[0]!.refusal).toBeUndefined();
    const contents = server.requests[0]!.body['contents'] as { parts: unknown[] }[];
    expect(contents[0]!.parts).toEqual([
      { text: 'What is this?' },
      { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
      { inlineData: { mimeType: 'image/jpeg', data: '/9j/4A' } },
      { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/cat.webp' } },
    ]);
    expect(contents[2]!.parts).toEqual([
      { functionResponse: { name: 'shot', response: { output: 'screen' } } },
      { inlineData: { mimeType: 'image/png', data: 'QUJD' } },
    ]);
  });

  it('refuses an image URL without a media type before any request, saying what to add', async () => {
    const failure = await adapter()
      .call([{ role: 'user', content: [{ type: 'image', url: 'https://example.com/cat' }] }], [])
      .catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(InvalidArgumentError);
    expect((failure as Error).message).toContain('messages[0].content');
    expect((failure as Error).message).toContain('add mediaType');
    expect(server.requests).toHaveLength(0);
  });

  it('counts usage as the other adapters: completion includes thoughts, cached tokens are part of the prompt', async () => {
    server.enqueue({
      type: 'turn',
      parts: [{ type: 'text', text: 'Hello!' }],
      usage: {
        promptTokenCount: 1000,
        cachedContentTokenCount: 600,
        candidatesTokenCount: 20,
        thoughtsTokenCount: 300,
        totalTokenCount: 1320,
      },
    });
    const response = await adapter().call(user, []);
    expect(response.usage).toEqual({
      promptTokens: 1000,
      completionTokens: 320,
      totalTokens: 1320,
      reasoningTokens: 300,
      cachedPromptTokens: 600,
    });
    expect(response).toMatchObject({
      finish_reason: 'stop',
      model: 'gemini-2.5-flash',
      requestId: 'resp_0000',
    });
  });
});
