import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import { InvalidArgumentError } from '../../../src/errors/invalid-argument-error.js';
import type { ChatMessage } from '../../../src/model/messages.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let client: Anthropic;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const adapter = (): AnthropicAdapter =>
  new AnthropicAdapter({ model: 'claude-sonnet-4-6', client, cache: false });
const png = 'iVBORw0KGgo=';

describe('AnthropicAdapter content parts', () => {
  it('sends images and PDFs as image and document blocks, in user messages and tool results alike', async () => {
    server.enqueue({ type: 'turn', content: [{ type: 'text', text: 'A chart.' }] });
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', data: png, mediaType: 'image/png' },
          { type: 'image', url: 'https://example.com/chart.jpg' },
          { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'report.pdf' },
          { type: 'file', data: btoa('plain words'), mediaType: 'text/plain' },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'shot', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'toolu_1',
        content: [{ type: 'image', url: `data:image/png;base64,${png}` }],
      },
    ];
    await adapter().call(messages, []);
    expect(server.requests[0]!.refusal).toBeUndefined();
    const sent = server.requests[0]!.body['messages'] as { content: unknown[] }[];
    expect(sent[0]!.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/chart.jpg' } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
        title: 'report.pdf',
      },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
    ]);
    expect(sent[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }],
      },
    ]);
  });

  it('refuses, before any request, an image or file Claude cannot read', async () => {
    const tiff: ChatMessage[] = [
      { role: 'user', content: [{ type: 'image', data: 'AAAA', mediaType: 'image/tiff' }] },
    ];
    await expect(adapter().call(tiff, [])).rejects.toThrow(InvalidArgumentError);
    await expect(adapter().call(tiff, [])).rejects.toThrow(/image\/tiff/);
    const sheet: ChatMessage[] = [
      {
        role: 'user',
        content: [{ type: 'file', url: 'https://example.com/a.xlsx', mediaType: 'application/vnd.ms-excel' }],
      },
    ];
    await expect(adapter().call(sheet, [])).rejects.toThrow(InvalidArgumentError);
    expect(server.requests).toHaveLength(0);
  });
});
