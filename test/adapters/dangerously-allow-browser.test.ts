import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.js';
import { completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer } from './fake-openai-server.js';

// The `openai` client takes a runtime with `window`, `window.document` and `navigator` for a
// browser and then refuses to hold an API key unless `dangerouslyAllowBrowser` is set.
const browserGlobals = ['window', 'navigator'] as const;
let saved: Map<string, PropertyDescriptor | undefined>;
let server: FakeOpenAIServer;

beforeEach(async () => {
  server = await startFakeOpenAIServer();
  saved = new Map(browserGlobals.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
  Object.defineProperty(globalThis, 'window', {
    value: { document: {} },
    configurable: true,
    writable: true,
  });
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: 'test-browser' },
    configurable: true,
    writable: true,
  });
});
afterEach(async () => {
  for (const [name, descriptor] of saved) {
    if (descriptor === undefined) Reflect.deleteProperty(globalThis, name);
    else Object.defineProperty(globalThis, name, descriptor);
  }
  await server.close();
});

const messages = [{ role: 'user' as const, content: 'hi' }];

describe('dangerouslyAllowBrowser', () => {
  it('in a browser, without it, the adapter says what to do and sends nothing', async () => {
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', apiKey: 'key', baseURL: server.baseURL });
    const failure = await adapter.call(messages, []).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(InvalidArgumentError);
    expect(failure).toMatchObject({ argument: 'dangerouslyAllowBrowser' });
    expect((failure as Error).message).toMatch(/from your server/);
    expect(server.requests).toEqual([]);
  });

  it('in a browser, with it, OpenAIAdapter and DeepSeekAdapter send their requests with the key', async () => {
    server.enqueue(
      { type: 'json', body: completion({ content: 'from OpenAI' }) },
      { type: 'json', body: completion({ content: 'from DeepSeek' }) },
    );
    const openai = new OpenAIAdapter({
      model: 'gpt-5-mini',
      apiKey: 'public-key',
      baseURL: server.baseURL,
      dangerouslyAllowBrowser: true,
    });
    const deepseek = new DeepSeekAdapter({
      model: 'deepseek-v4-flash',
      apiKey: 'public-key',
      baseURL: server.baseURL,
      dangerouslyAllowBrowser: true,
    });
    expect((await openai.call(messages, [])).content).toBe('from OpenAI');
    expect((await deepseek.call(messages, [])).content).toBe('from DeepSeek');
    expect(server.requests.map((request) => [request.path, request.headers['authorization']])).toEqual([
      ['/v1/chat/completions', 'Bearer public-key'],
      ['/v1/chat/completions', 'Bearer public-key'],
    ]);
  });

  it('must be a boolean', () => {
    expect(
      () =>
        new OpenAIAdapter({
          model: 'gpt-5-mini',
          apiKey: 'key',
          dangerouslyAllowBrowser: 'yes' as unknown as boolean,
        }),
    ).toThrow(/Invalid dangerouslyAllowBrowser \("yes"\): must be true or false/);
  });
});
