import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { InvalidArgumentError, InvalidRequestError, ToolOrchestrator } from '../../src/index.js';
import { completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer } from './fake-openai-server.js';

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.close());

const apiKey = 'test-key';

describe('the provider an adapter names in traces and errors', () => {
  it('is the well-known name of an OpenAI-compatible host, else the adapter name', () => {
    const provider = (baseURL: string) => new OpenAIAdapter({ model: 'm', apiKey, baseURL }).provider;
    expect(provider('https://api.openai.com/v1')).toBe('openai');
    expect(provider('https://api.groq.com/openai/v1')).toBe('groq');
    expect(provider('https://api.x.ai/v1')).toBe('x_ai');
    expect(provider('https://api.mistral.ai/v1')).toBe('mistral_ai');
    expect(provider('https://generativelanguage.googleapis.com/v1beta/openai/')).toBe('gcp.gemini');
    expect(provider('https://my-resource.openai.azure.com/openai/v1')).toBe('azure.ai.openai');
    expect(provider('https://API.DeepSeek.com')).toBe('deepseek');
    // A host the conventions have no name for: the client speaks OpenAI's API.
    expect(provider('http://localhost:11434/v1')).toBe('openai');
    expect(provider('https://openrouter.ai/api/v1')).toBe('openai');
    // Only the host counts, never a look-alike.
    expect(provider('https://api.groq.com.example.net/v1')).toBe('openai');
    expect(new DeepSeekAdapter({ model: 'm', apiKey, baseURL: 'https://proxy.example.net' }).provider).toBe(
      'deepseek',
    );
  });

  it('is the provider option when given, on llm_call events and on errors', async () => {
    const adapter = new OpenAIAdapter({
      model: 'qwen3:8b',
      apiKey,
      baseURL: server.baseURL,
      provider: 'ollama',
      maxRetries: 0,
    });
    expect(adapter.provider).toBe('ollama');
    server.enqueue(
      { type: 'json', body: completion({ content: 'hi' }) },
      {
        type: 'json',
        status: 400,
        body: { error: { message: 'Bad model.', type: 'invalid_request_error' } },
      },
    );
    const result = await new ToolOrchestrator(adapter, {}).run([{ role: 'user', content: 'hi' }]);
    const call = result.traces.find((event) => event.type === 'llm_call')!;
    expect(call.data).toMatchObject({ provider: 'ollama', model: 'qwen3:8b' });
    const error = await adapter
      .call([{ role: 'user', content: 'hi' }], [])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({
      provider: 'ollama',
      message: expect.stringMatching(/^ollama answered 400: Bad model/),
    });
  });

  it('refuses an empty or non-string provider option, naming it', () => {
    for (const provider of ['', '  ', 42]) {
      expect(
        () => new OpenAIAdapter({ model: 'm', apiKey, provider: provider as string }),
        String(provider),
      ).toThrow(InvalidArgumentError);
    }
    expect(() => new OpenAIAdapter({ model: 'm', apiKey, provider: '' })).toThrow(
      /provider.*non-empty string/,
    );
  });
});
