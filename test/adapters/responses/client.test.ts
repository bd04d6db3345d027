import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIResponsesAdapter } from '../../../src/adapters/openai/index.js';
import { MissingApiKeyError } from '../../../src/errors/missing-api-key-error.js';
import { startFakeResponsesServer } from './fake-responses-server.js';
import type { FakeResponsesServer } from './fake-responses-server.js';

let server: FakeResponsesServer;
let savedKey: string | undefined;
beforeEach(async () => {
  server = await startFakeResponsesServer();
  savedKey = process.env['OPENAI_API_KEY'];
  process.env['OPENAI_API_KEY'] = 'sk-from-the-environment';
});
afterEach(async () => {
  if (savedKey === undefined) delete process.env['OPENAI_API_KEY'];
  else process.env['OPENAI_API_KEY'] = savedKey;
  await server.close();
});

describe('the client OpenAIResponsesAdapter builds', () => {
  it('never sends OPENAI_API_KEY to another host: a baseURL elsewhere needs its own apiKey', () => {
    expect(() => new OpenAIResponsesAdapter({ model: 'gpt-5-mini', baseURL: server.baseURL })).toThrow(
      MissingApiKeyError,
    );
  });

  it('sends the apiKey it is given, and hands out the client it built', async () => {
    server.enqueue({ type: 'turn', output: [{ type: 'message', text: 'Hi' }] });
    const adapter = new OpenAIResponsesAdapter({
      model: 'gpt-5-mini',
      apiKey: 'sk-local',
      baseURL: server.baseURL,
      headers: { 'x-team': 'docs' },
    });
    const response = await adapter.call([{ role: 'user', content: 'Hello' }], []);
    expect(response.content).toBe('Hi');
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer sk-local');
    expect(server.requests[0]!.headers['x-team']).toBe('docs');
    const client = await adapter.getClient();
    expect(typeof client.responses.create).toBe('function');
    expect(await adapter.getClient()).toBe(client);
  });
});
