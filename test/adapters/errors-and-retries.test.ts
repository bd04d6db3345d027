import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { AuthenticationError } from '../../src/errors/authentication-error.js';
import { ConnectionError } from '../../src/errors/connection-error.js';
import { EmptyResponseError } from '../../src/errors/empty-response-error.js';
import { InsufficientBalanceError } from '../../src/errors/insufficient-balance-error.js';
import { InsufficientSystemResourceError } from '../../src/errors/insufficient-system-resource-error.js';
import { InvalidRequestError } from '../../src/errors/invalid-request-error.js';
import { ModelProviderError } from '../../src/errors/model-provider-error.js';
import { RateLimitError } from '../../src/errors/rate-limit-error.js';
import { ServerError } from '../../src/errors/server-error.js';
import { ToolOrchestratorError } from '../../src/errors/tool-orchestrator-error.js';
import { UnexpectedResponseError } from '../../src/errors/unexpected-response-error.js';
import type { ModelStreamEvent } from '../../src/model/model-adapter.js';
import { chunk, completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeResponse } from './fake-openai-server.js';

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.close());

const user = [{ role: 'user' as const, content: 'hi' }];
const ok: FakeResponse = { type: 'json', body: completion({ content: 'ok' }) };

function clientWith(maxRetries: number): OpenAI {
  return new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries, timeout: 5000 });
}

function errorBody(
  message: string,
  type: string,
  code: string | null,
): { error: { message: string; type: string; param: null; code: string | null } } {
  return { error: { message, type, param: null, code } };
}

async function failure(promise: Promise<unknown>): Promise<ModelProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelProviderError);
  return error as ModelProviderError;
}

describe('HTTP status to typed error', () => {
  const cases = [
    [
      401,
      errorBody(
        'Authentication Fails, Your api key: ****abcd is invalid',
        'authentication_error',
        'invalid_request_error',
      ),
      AuthenticationError,
      'authentication',
      false,
    ],
    [
      402,
      errorBody('Insufficient Balance', 'unknown_error', 'invalid_request_error'),
      InsufficientBalanceError,
      'insufficient_balance',
      false,
    ],
    [
      429,
      errorBody('You exceeded your current quota.', 'insufficient_quota', 'insufficient_quota'),
      InsufficientBalanceError,
      'insufficient_balance',
      false,
    ],
    [
      429,
      errorBody('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'),
      RateLimitError,
      'rate_limit',
      true,
    ],
    [
      400,
      errorBody("Invalid 'messages[1].tool_calls': empty array.", 'invalid_request_error', 'empty_array'),
      InvalidRequestError,
      'invalid_request',
      false,
    ],
    [
      422,
      errorBody(
        'Failed to deserialize the JSON body into the target type',
        'invalid_request_error',
        'invalid_request_error',
      ),
      InvalidRequestError,
      'invalid_request',
      false,
    ],
    [
      500,
      errorBody('The server had an error while processing your request.', 'server_error', null),
      ServerError,
      'server_error',
      true,
    ],
    [
      503,
      errorBody('Server overloaded, please try again later.', 'server_error', null),
      ServerError,
      'server_error',
      true,
    ],
  ] as const;

  it.each(cases)('%i maps to its error class', async (status, body, errorClass, code, retryable) => {
    server.enqueue({ type: 'json', status, body, headers: { 'x-request-id': 'req-42', 'retry-after': '7' } });
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client: clientWith(0) });
    const error = await failure(adapter.call(user, []));
    expect(error).toBeInstanceOf(errorClass);
    expect(ToolOrchestratorError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status,
      code,
      retryable,
      provider: 'deepseek',
      requestId: 'req-42',
      name: errorClass.name,
    });
    expect(error.message).toContain(`deepseek answered ${status}: ${body.error.message}`);
    expect(error.providerCode).toBe(body.error.code ?? body.error.type);
  });

  it('names the key variable on 401 and reads retry-after on 429', async () => {
    server.enqueue(
      {
        type: 'json',
        status: 401,
        body: errorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'),
      },
      {
        type: 'json',
        status: 429,
        body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
        headers: { 'retry-after': '12' },
      },
    );
    const adapter = new OpenAIAdapter({ model: 'gpt-5-mini', client: clientWith(0) });
    expect((await failure(adapter.call(user, []))).message).toContain(
      'Check OPENAI_API_KEY or the apiKey option',
    );
    expect(await failure(adapter.call(user, []))).toMatchObject({ retryAfterSeconds: 12 });
  });

  it('maps a 200 error body or a non-JSON body to UnexpectedResponseError, without retrying', async () => {
    server.enqueue(
      { type: 'json', body: { error: { message: 'model "nope" not found', type: 'not_found' } } },
      { type: 'json', body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } },
      ok,
    );
    const adapter = new OpenAIAdapter({ model: 'nope', client: clientWith(2), retryBaseDelayMs: 0 });
    const first = await failure(adapter.call(user, []));
    expect(first).toBeInstanceOf(UnexpectedResponseError);
    expect(first.message).toBe('openai answered 200 with an error: model "nope" not found');
    expect(await failure(adapter.call(user, []))).toMatchObject({ code: 'model_error', retryable: false });
    expect(server.requests).toHaveLength(2);
  });

  it('maps an unreachable server to ConnectionError', async () => {
    await server.close();
    const error = await failure(new OpenAIAdapter({ model: 'm', client: clientWith(0) }).call(user, []));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'connection_error', retryable: true });
  });
});

describe('retries of HTTP failures (made by the adapter, the client is asked for none)', () => {
  it('retries 429 and honours retry-after', async () => {
    server.enqueue(
      {
        type: 'json',
        status: 429,
        body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
        headers: { 'retry-after': '0.3' },
      },
      ok,
    );
    const started = Date.now();
    const response = await new OpenAIAdapter({ model: 'm', client: clientWith(2) }).call(user, []);
    expect(response.content).toBe('ok');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('retries 500 and 503, then gives up with ServerError once maxRetries is spent', async () => {
    const serverError: FakeResponse = {
      type: 'json',
      status: 500,
      body: errorBody('boom', 'server_error', null),
      headers: { 'retry-after': '0' },
    };
    server.enqueue(serverError, { ...serverError, status: 503 }, ok);
    expect((await new OpenAIAdapter({ model: 'm', client: clientWith(2) }).call(user, [])).content).toBe(
      'ok',
    );
    expect(server.requests).toHaveLength(3);
    server.enqueue(serverError, serverError, ok);
    const error = await failure(
      new OpenAIAdapter({ model: 'm', client: clientWith(2), maxRetries: 1 }).call(user, []),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(5);
  });
});

describe('retries of failures that arrive as a 200', () => {
  it('retries a blank 200 body, then throws EmptyResponseError when the budget is spent', async () => {
    server.enqueue({ type: 'json', body: '' }, { type: 'json', body: '\n\n\n' }, ok);
    const adapter = new DeepSeekAdapter({
      model: 'deepseek-v4-flash',
      client: clientWith(2),
      retryBaseDelayMs: 0,
    });
    expect((await adapter.call(user, [])).content).toBe('ok');
    expect(server.requests).toHaveLength(3);
    server.enqueue({ type: 'json', body: '' }, ok);
    const strict = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client: clientWith(2), maxRetries: 0 });
    expect(await failure(strict.call(user, []))).toBeInstanceOf(EmptyResponseError);
    expect(server.requests).toHaveLength(4);
  });

  it('retries finish_reason insufficient_system_resource, in call and in a stream with nothing emitted yet', async () => {
    server.enqueue(
      { type: 'json', body: completion({ content: '' }, { finish_reason: 'insufficient_system_resource' }) },
      ok,
      {
        type: 'sse',
        items: [chunk({ role: 'assistant', content: '' }, { finish_reason: 'insufficient_system_resource' })],
      },
      { type: 'sse', items: [chunk({ role: 'assistant', content: 'fine' }, { finish_reason: 'stop' })] },
    );
    const adapter = new DeepSeekAdapter({
      model: 'deepseek-v4-flash',
      client: clientWith(2),
      retryBaseDelayMs: 0,
    });
    expect((await adapter.call(user, [])).content).toBe('ok');
    const events: ModelStreamEvent[] = [];
    for await (const event of adapter.stream(user, [])) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['content_delta', 'response']);
    expect(server.requests).toHaveLength(4);
  });

  it('does not retry a stream once deltas were emitted', async () => {
    server.enqueue(
      {
        type: 'sse',
        items: [
          chunk({ role: 'assistant', content: 'par' }, { finish_reason: 'insufficient_system_resource' }),
        ],
      },
      ok,
    );
    const adapter = new DeepSeekAdapter({
      model: 'deepseek-v4-flash',
      client: clientWith(2),
      retryBaseDelayMs: 0,
    });
    const consume = async (): Promise<void> => {
      for await (const _event of adapter.stream(user, [])) void _event;
    };
    expect(await failure(consume())).toBeInstanceOf(InsufficientSystemResourceError);
    expect(server.requests).toHaveLength(1);
  });

  it("takes the adapter's maxRetries over the client's", async () => {
    // The retry of the blank body spends the only retry, so the 500 is not retried.
    server.enqueue(
      { type: 'json', body: '' },
      {
        type: 'json',
        status: 500,
        body: errorBody('boom', 'server_error', null),
        headers: { 'retry-after': '0' },
      },
      ok,
    );
    const adapter = new OpenAIAdapter({
      model: 'm',
      client: clientWith(5),
      maxRetries: 1,
      retryBaseDelayMs: 0,
    });
    expect(await failure(adapter.call(user, []))).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(2);
  });
});

describe('one maxRetries budget for every kind of failure', () => {
  const serverError: FakeResponse = {
    type: 'json',
    status: 500,
    body: errorBody('boom', 'server_error', null),
    headers: { 'retry-after': '0' },
  };
  const blank: FakeResponse = { type: 'json', body: '' };

  it('counts retries of 500s and of a blank 200 against one budget in call()', async () => {
    // Both retries go to the 500s; the blank 200 that follows is not retried again.
    server.enqueue(serverError, serverError, blank, serverError, blank, blank, ok);
    const adapter = new OpenAIAdapter({
      model: 'm',
      client: clientWith(5),
      maxRetries: 2,
      retryBaseDelayMs: 0,
    });
    expect(await failure(adapter.call(user, []))).toBeInstanceOf(EmptyResponseError);
    expect(server.requests).toHaveLength(3);
  });

  it('counts retries of 500s and of a blank 200 against one budget in stream()', async () => {
    server.enqueue(serverError, serverError, blank, serverError, blank, blank, ok);
    const adapter = new OpenAIAdapter({
      model: 'm',
      client: clientWith(5),
      maxRetries: 2,
      retryBaseDelayMs: 0,
    });
    const consume = async (): Promise<void> => {
      for await (const _event of adapter.stream(user, [])) void _event;
    };
    expect(await failure(consume())).toBeInstanceOf(EmptyResponseError);
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry OpenAI's insufficient_quota 429", async () => {
    const quota: FakeResponse = {
      type: 'json',
      status: 429,
      body: errorBody('You exceeded your current quota.', 'insufficient_quota', 'insufficient_quota'),
      headers: { 'retry-after': '0' },
    };
    server.enqueue(quota, quota, quota);
    const adapter = new OpenAIAdapter({ model: 'm', client: clientWith(2) });
    const error = await failure(adapter.call(user, []));
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });
  it('obeys x-should-retry: false on a 503, and x-should-retry: true on a 400', async () => {
    server.enqueue(
      {
        type: 'json',
        status: 503,
        body: errorBody('down for good', 'server_error', null),
        headers: { 'x-should-retry': 'false', 'retry-after': '0' },
      },
      {
        type: 'json',
        status: 400,
        body: errorBody('try again', 'invalid_request_error', null),
        headers: { 'x-should-retry': 'true', 'retry-after': '0' },
      },
      ok,
    );
    const adapter = new OpenAIAdapter({ model: 'm', client: clientWith(2) });
    const error = await failure(adapter.call(user, []));
    expect(error).toMatchObject({ code: 'server_error', retryable: false });
    expect(server.requests).toHaveLength(1);
    expect((await adapter.call(user, [])).content).toBe('ok');
    expect(server.requests).toHaveLength(3);
  });
});

describe('maxRetryDelayMs', () => {
  it('waits a retry-after within it, and carries retryAfterMs on the error', async () => {
    server.enqueue(
      {
        type: 'json',
        status: 429,
        body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
        headers: { 'retry-after-ms': '250' },
      },
      {
        type: 'json',
        status: 429,
        body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
        headers: { 'retry-after': '0.25' },
      },
    );
    const adapter = new OpenAIAdapter({ model: 'm', client: clientWith(1), maxRetryDelayMs: 300 });
    const started = Date.now();
    const error = await failure(adapter.call(user, []));
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(error).toMatchObject({ code: 'rate_limit', retryAfterMs: 250, retryAfterSeconds: 0.25 });
    expect(server.requests).toHaveLength(2);
  });

  it.each([-1, Number.NaN, '60000'])('rejects %s with an InvalidArgumentError naming it', (value) => {
    expect(
      () => new OpenAIAdapter({ model: 'm', client: clientWith(0), maxRetryDelayMs: value as number }),
    ).toThrow(/^Invalid maxRetryDelayMs \(.*\): must be a number of milliseconds >= 0/);
  });
});

describe('abort', () => {
  it('passes the signal to the HTTP request', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'late' }), delayMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const call = new OpenAIAdapter({ model: 'm', client: clientWith(2) }).call(user, [], {
      signal: controller.signal,
    });
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await server.disconnected(0);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });
});
