import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import { InvalidArgumentError } from '../../../src/errors/invalid-argument-error.js';
import { MissingApiKeyError } from '../../../src/errors/missing-api-key-error.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let savedKey: string | undefined;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  savedKey = process.env['ANTHROPIC_API_KEY'];
  process.env['ANTHROPIC_API_KEY'] = 'sk-ant-from-the-environment';
});
afterEach(async () => {
  if (savedKey === undefined) delete process.env['ANTHROPIC_API_KEY'];
  else process.env['ANTHROPIC_API_KEY'] = savedKey;
  await server.close();
});

describe('the client AnthropicAdapter builds', () => {
  it('never sends ANTHROPIC_API_KEY to another host: a baseURL elsewhere needs its own apiKey', () => {
    expect(() => new AnthropicAdapter({ model: 'claude-sonnet-4-6', baseURL: server.baseURL })).toThrow(
      MissingApiKeyError,
    );
  });

  it('sends the apiKey it is given, reads the request id, and hands out the client it built', async () => {
    server.enqueue({ type: 'turn', content: [{ type: 'text', text: 'Hi' }] });
    const adapter = new AnthropicAdapter({
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant-local',
      baseURL: server.baseURL,
      headers: { 'x-team': 'docs' },
    });
    expect(adapter.provider).toBe('anthropic');
    expect(adapter.providerDataKey).toBe('anthropic.messages');
    expect(adapter.contextWindowTokens).toBe(200_000);
    const response = await adapter.call([{ role: 'user', content: 'Hello' }], []);
    expect(response).toMatchObject({ content: 'Hi', requestId: 'req_0000', finish_reason: 'stop' });
    const { authorization, 'x-api-key': apiKey } = server.requests[0]!.headers;
    // The client sends the key as x-api-key or, in its latest versions, as a bearer token.
    expect(apiKey ?? authorization).toMatch(/^(Bearer )?sk-ant-local$/);
    expect(server.requests[0]!.headers['x-team']).toBe('docs');
    const client = await adapter.getClient();
    expect(typeof client.messages.create).toBe('function');
    expect(await adapter.getClient()).toBe(client);
  });

  it('sends a default max_tokens the client accepts without streaming, where a larger one is refused', async () => {
    server.enqueue({ type: 'turn', content: [{ type: 'text', text: 'Hi' }] });
    // No timeout: the client then checks max_tokens against its ten-minute non-streaming limit.
    const options = {
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant-local',
      baseURL: server.baseURL,
      maxRetries: 0,
    };
    const response = await new AnthropicAdapter(options).call([{ role: 'user', content: 'Hello' }], []);
    expect(response.content).toBe('Hi');
    await expect(
      new AnthropicAdapter({ ...options, maxTokens: 32_000 }).call([{ role: 'user', content: 'Hello' }], []),
    ).rejects.toThrow(/maxTokens \(32000\).*run the orchestrator with stream: true/);
  });

  it('refuses options it cannot send, naming the value', () => {
    const base = { model: 'claude-sonnet-4-6', apiKey: 'key' };
    expect(
      () => new AnthropicAdapter({ ...base, thinking: { type: 'enabled', budgetTokens: 20_000 } }),
    ).toThrow(/under maxTokens \(16000\)/);
    expect(() => new AnthropicAdapter({ ...base, cache: { ttl: '10m' as '5m' } })).toThrow(
      InvalidArgumentError,
    );
    expect(() => new AnthropicAdapter({ ...base, maxTokens: 0 })).toThrow(InvalidArgumentError);
    expect(() => new AnthropicAdapter({ ...base, thinking: { type: 'adaptive' }, temperature: 0.2 })).toThrow(
      /temperature.*thinking on/,
    );
  });
});
