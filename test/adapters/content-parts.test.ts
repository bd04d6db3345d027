import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.js';
import type { ChatMessage } from '../../src/model/messages.js';
import { completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer } from './fake-openai-server.js';

let server: FakeOpenAIServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

/** Four bytes of PNG signature, base64. */
const pngData = 'iVBORw==';
const pdfData = 'JVBERi0xLjQK';

const askWithParts: ChatMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', url: 'https://example.com/cat.png' },
      { type: 'image', data: pngData, mediaType: 'image/png' },
      { type: 'file', data: pdfData, mediaType: 'application/pdf', filename: 'report.pdf' },
    ],
  },
];

const toolTurn: ChatMessage[] = [
  { role: 'user', content: 'Take a screenshot.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
  },
];

describe('content parts on the Chat Completions wire', () => {
  it('OpenAI: user parts become text, image_url (base64 as a data: URL) and file parts', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'A cat and a report.' }) });
    await new OpenAIAdapter({ model: 'gpt-5-mini', client }).call(askWithParts, []);
    expect((server.requests[0]?.body as { messages: unknown[] }).messages).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "text": "What is in these?",
              "type": "text",
            },
            {
              "image_url": {
                "url": "https://example.com/cat.png",
              },
              "type": "image_url",
            },
            {
              "image_url": {
                "url": "data:image/png;base64,iVBORw==",
              },
              "type": "image_url",
            },
            {
              "file": {
                "file_data": "data:application/pdf;base64,JVBERi0xLjQK",
                "filename": "report.pdf",
              },
              "type": "file",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });

  it('OpenAI: a tool message with text parts is sent as text parts', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'Done.' }) });
    const messages: ChatMessage[] = [
      ...toolTurn,
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'page title: Home' }] },
    ];
    await new OpenAIAdapter({ model: 'gpt-5-mini', client }).call(messages, []);
    expect((server.requests[0]?.body as { messages: unknown[] }).messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: [{ type: 'text', text: 'page title: Home' }],
    });
  });

  it('OpenAI: an image in a tool result is refused before any request, naming the call and what to do', async () => {
    const messages: ChatMessage[] = [
      ...toolTurn,
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: [
          { type: 'text', text: 'Here it is.' },
          { type: 'image', data: pngData, mediaType: 'image/png' },
        ],
      },
    ];
    const failure = await new OpenAIAdapter({ model: 'gpt-5-mini', client })
      .call(messages, [])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidArgumentError);
    expect((failure as InvalidArgumentError).argument).toBe('messages[2].content[1]');
    expect((failure as Error).message).toContain('tool call "call_1"');
    expect((failure as Error).message).toContain('[image: image/png, 4 B]');
    expect((failure as Error).message).toMatch(/takes only text.*user message/);
    expect(server.requests).toHaveLength(0);
  });

  it('OpenAI: a file by URL is refused (Chat Completions takes files as data)', async () => {
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [{ type: 'file', url: 'https://example.com/a.pdf', mediaType: 'application/pdf' }],
      },
    ];
    await expect(new OpenAIAdapter({ model: 'gpt-5-mini', client }).call(messages, [])).rejects.toThrow(
      /Invalid messages\[0\]\.content\[0\].*takes a file as base64 data, not by URL/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('DeepSeek: text parts are joined into one string', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'Hi.' }) });
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first line' },
          { type: 'text', text: 'second line' },
        ],
      },
    ];
    await new DeepSeekAdapter({ model: 'deepseek-v4-flash', client }).call(messages, []);
    expect((server.requests[0]?.body as { messages: unknown[] }).messages[0]).toEqual({
      role: 'user',
      content: 'first line\nsecond line',
    });
  });

  it('DeepSeek: an image or a file is refused before any request', async () => {
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client });
    await expect(adapter.call(askWithParts, [])).rejects.toThrow(
      /Invalid messages\[0\]\.content\[1\] \("\[image: https:\/\/example\.com\/cat\.png\]"\): deepseek takes only text/,
    );
    const withFile: ChatMessage[] = [
      { role: 'user', content: [{ type: 'file', data: pdfData, mediaType: 'application/pdf' }] },
    ];
    await expect(adapter.call(withFile, [])).rejects.toThrow(/content\[0\].*not a file/);
    expect(server.requests).toHaveLength(0);
  });
});
