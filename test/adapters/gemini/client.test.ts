import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeminiAdapter } from '../../../src/adapters/gemini/index.js';
import { InvalidArgumentError } from '../../../src/errors/invalid-argument-error.js';
import { MissingApiKeyError } from '../../../src/errors/missing-api-key-error.js';
import { startFakeGeminiServer } from './fake-gemini-server.js';
import type { FakeGeminiServer } from './fake-gemini-server.js';

const variables = ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL'] as const;
let server: FakeGeminiServer;
let saved: Record<string, string | undefined>;
beforeEach(async () => {
  server = await startFakeGeminiServer();
  saved = Object.fromEntries(variables.map((name) => [name, process.env[name]]));
  for (const name of variables) delete process.env[name];
});
afterEach(async () => {
  for (const name of variables) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await server.close();
});

const hello = { type: 'turn', parts: [{ type: 'text', text: 'Hi' }] } as const;

describe('the client GeminiAdapter builds', () => {
  it('sends the apiKey it is given to baseURL, with the headers, and hands out the client it built', async () => {
    server.enqueue(hello);
    const adapter = new GeminiAdapter({
      model: 'gemini-2.5-flash',
      apiKey: 'AIza-local',
      baseURL: server.baseURL,
      headers: { 'x-team': 'docs' },
    });
    expect(adapter.provider).toBe('gemini');
    expect(adapter.providerDataKey).toBe('gemini.generate_content');
    expect(adapter.contextWindowTokens).toBe(1_048_576);
    const response = await adapter.call([{ role: 'user', content: 'Hello' }], []);
    expect(response).toMatchObject({ content: 'Hi', requestId: 'resp_0000', finish_reason: 'stop' });
    expect(server.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('AIza-local');
    expect(server.requests[0]!.headers['x-team']).toBe('docs');
    const client = await adapter.getClient();
    expect(typeof client.models.generateContent).toBe('function');
    expect(await adapter.getClient()).toBe(client);
  });

  it('reads GEMINI_API_KEY, else GOOGLE_API_KEY, and sends neither to another host', async () => {
    expect(() => new GeminiAdapter({ model: 'gemini-2.5-flash' })).toThrow(/GEMINI_API_KEY/);
    process.env['GOOGLE_API_KEY'] = 'AIza-google';
    expect(() => new GeminiAdapter({ model: 'gemini-2.5-flash', baseURL: server.baseURL })).toThrow(
      MissingApiKeyError,
    );
    server.enqueue(hello);
    process.env['GOOGLE_GEMINI_BASE_URL'] = server.baseURL;
    // A base URL from the environment is the user's own choice, as the client reads it.
    await new GeminiAdapter({ model: 'gemini-2.5-flash' }).call([{ role: 'user', content: 'Hello' }], []);
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('AIza-google');
  });

  it('refuses thinking options Gemini would refuse, before any request', () => {
    const options = { model: 'gemini-2.5-flash', apiKey: 'key' };
    expect(
      () => new GeminiAdapter({ ...options, thinking: { thinkingBudget: 1024, thinkingLevel: 'LOW' } }),
    ).toThrow(InvalidArgumentError);
    expect(() => new GeminiAdapter({ ...options, thinking: { thinkingLevel: 'max' as never } })).toThrow(
      /'MINIMAL', 'LOW', 'MEDIUM' or 'HIGH'/,
    );
    expect(() => new GeminiAdapter({ ...options, maxOutputTokens: 0 })).toThrow(/maxOutputTokens/);
  });
});
