import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import {
  ConnectionError,
  EmptyResponseError,
  StreamError,
  ToolOrchestrator,
  UnexpectedResponseError,
} from '../../src/index.js';
import type { ModelStreamEvent, TraceEvent, ModelProviderError } from '../../src/index.js';
import { chunk, completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeResponse, FakeSseItem } from './fake-openai-server.js';

// A hostile network: resets, drips, truncated streams, bad chunks, JSON to a streaming request.
// Every wait is bounded by `within`, so a regression fails the test instead of hanging it.

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
});

const user = [{ role: 'user' as const, content: 'hi' }];

function clientWith(maxRetries: number, timeout = 5000): OpenAI {
  return new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries, timeout });
}

function openai(maxRetries: number, timeout?: number): OpenAIAdapter {
  return new OpenAIAdapter({ model: 'm', client: clientWith(maxRetries, timeout), retryBaseDelayMs: 0 });
}

/** Settles with `promise`, or rejects once `milliseconds` have passed: a hang fails, it never freezes. */
async function within<T>(milliseconds: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${milliseconds} ms`)), milliseconds);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Runs `promise` to a rejection within 5 s and returns the error. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return within(
    5000,
    promise.then(
      (value) => {
        throw new Error(`expected a rejection, got ${JSON.stringify(value)?.slice(0, 200)}`);
      },
      (error: unknown) => error,
    ),
  );
}

const ok: FakeResponse = { type: 'json', body: completion({ content: 'ok' }) };
const okStream: FakeResponse = {
  type: 'sse',
  items: [chunk({ role: 'assistant', content: 'fine' }), chunk({}, { finish_reason: 'stop' })],
};

function sse(items: FakeSseItem[], done = true): FakeResponse {
  return { type: 'sse', items, done };
}

describe('a connection reset mid-body or mid-stream (#10 item 10)', () => {
  it('is a retryable ConnectionError in call(), not a bare TypeError', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'cut short' }), resetAfterBytes: 20 });
    const error = await rejection(openai(0).call(user, []));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'connection_error', retryable: true, provider: 'openai' });
    expect((error as Error).message).toMatch(/^The connection to openai broke while reading the response: /);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('is retried in call() within maxRetries', async () => {
    server.enqueue({ type: 'json', body: completion({ content: 'cut short' }), resetAfterBytes: 20 }, ok);
    const response = await within(5000, openai(1).call(user, []));
    expect(response.content).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('is retried in stream() while nothing was emitted, so no delta is seen twice', async () => {
    server.enqueue(sse([chunk({ role: 'assistant', content: '' }), { reset: true }]), okStream);
    const events = await within(5000, collect(openai(1).stream(user, [])));
    expect(events.map((event) => event.type)).toEqual(['content_delta', 'response']);
    expect(server.requests).toHaveLength(2);
  });

  it('is thrown as a retryable ConnectionError once deltas were emitted, without a retry', async () => {
    server.enqueue(sse([chunk({ role: 'assistant', content: 'Par' }), { reset: true }]), okStream);
    const seen: ModelStreamEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of openai(2).stream(user, [])) seen.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toContain('after 1 chunk');
    expect(seen).toEqual([{ type: 'content_delta', delta: 'Par' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('is retried inside a streaming ToolOrchestrator run: the trace shows each delta once', async () => {
    server.enqueue(sse([chunk({ role: 'assistant', content: '' }), { reset: true }]), okStream);
    const orchestrator = new ToolOrchestrator(openai(1), {}, { stream: true });
    const result = await within(5000, orchestrator.run(user));
    expect(result.content).toBe('fine');
    const deltas = result.traces.filter((event: TraceEvent) => event.type === 'content_delta');
    expect(deltas).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });
});

describe('a stream that ends without finish_reason and without [DONE] (#10 item 11)', () => {
  it('throws a retryable StreamError carrying the partial answer, not a silent final answer', async () => {
    server.enqueue(sse([chunk({ role: 'assistant', content: 'The answer is' })], false));
    const seen: ModelStreamEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of openai(2).stream(user, [])) seen.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(StreamError);
    expect(error).toMatchObject({ code: 'stream_error', retryable: true, provider: 'openai' });
    expect((error as Error).message).toContain('without a finish_reason or [DONE]');
    expect((error as ModelProviderError).rawOutput).toMatchObject({ content: 'The answer is' });
    // The delta was out before the end was seen: no retry, or the caller would see it twice.
    expect(seen).toEqual([{ type: 'content_delta', delta: 'The answer is' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('is retried while nothing was emitted', async () => {
    server.enqueue(sse([chunk({ role: 'assistant', content: '' })], false), okStream);
    const events = await within(5000, collect(openai(1).stream(user, [])));
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: 'fine' } });
    expect(server.requests).toHaveLength(2);
  });

  it('accepts a stream with finish_reason but no [DONE], and one with [DONE] but no finish_reason', async () => {
    server.enqueue(
      sse([chunk({ role: 'assistant', content: 'a' }), chunk({}, { finish_reason: 'stop' })], false),
      sse([chunk({ role: 'assistant', content: 'b' })], true),
    );
    const adapter = openai(0);
    const first = await within(5000, collect(adapter.stream(user, [])));
    expect(first.at(-1)).toMatchObject({ response: { content: 'a', finish_reason: 'stop' } });
    const second = await within(5000, collect(adapter.stream(user, [])));
    expect(second.at(-1)).toMatchObject({ response: { content: 'b', finish_reason: null } });
  });

  it('ends a streaming ToolOrchestrator run with the StreamError and an error trace after the deltas', async () => {
    server.enqueue(sse([chunk({ role: 'assistant', content: 'The answer is' })], false));
    const orchestrator = new ToolOrchestrator(openai(2), {}, { stream: true });
    const traces: TraceEvent[] = [];
    orchestrator.on('*', (event) => traces.push(event as TraceEvent));
    const error = await rejection(orchestrator.run(user));
    expect(error).toBeInstanceOf(StreamError);
    expect(traces.map((event) => event.type)).toEqual(['run_start', 'content_delta', 'error', 'run_end']);
    expect(traces[2]).toMatchObject({ type: 'error', data: { name: 'StreamError', code: 'stream_error' } });
  });
});

describe('an SSE event that is not JSON (#10 item 12)', () => {
  it('throws UnexpectedResponseError naming the chunk, and prints nothing', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.enqueue(
      sse([chunk({ role: 'assistant', content: '' }), { raw: 'data: {"choices": [oops\n\n' }]),
      okStream,
    );
    const error = await rejection(collect(openai(1).stream(user, [])));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ code: 'model_error', retryable: false, rawOutput: '{"choices": [oops' });
    expect((error as Error).message).toContain('a stream event that is not JSON: "{\\"choices\\": [oops"');
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    expect(printed).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(1);
  });
});

describe("the adapter's timeout covers the whole response (#10 item 14)", () => {
  const dripped: FakeResponse = { type: 'json', body: completion({ content: 'slow' }), dripMs: 20 };

  it('stops a JSON body dripped one byte at a time', async () => {
    server.enqueue(dripped);
    const adapter = new OpenAIAdapter({
      model: 'm',
      apiKey: 'test',
      baseURL: server.baseURL,
      timeout: 400,
      maxRetries: 0,
    });
    const started = Date.now();
    const error = await rejection(adapter.call(user, []));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toContain('did not finish its response within the timeout (400 ms)');
    expect(Date.now() - started).toBeLessThan(3000);
    await within(2000, server.disconnected(0));
  });

  // 20 s of keep-alives and no chunk: without a timeout past the headers this outlives `within`.
  const keepAlives = Array.from({ length: 1000 }, (): FakeSseItem[] => [
    { comment: 'keep-alive' },
    { delayMs: 20 },
  ]).flat();

  it('stops a stream that sends only keep-alives, with a ConnectionError', async () => {
    server.enqueue(sse([chunk({ role: 'assistant', content: 'Hel' }), ...keepAlives]));
    const started = Date.now();
    const error = await rejection(collect(openai(0, 400).stream(user, [])));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('sent no stream chunk within the timeout (400 ms)');
    expect(Date.now() - started).toBeLessThan(3000);
    await within(2000, server.disconnected(0));
  });

  it('stops a stream that drips one chunk byte by byte, and retries it within maxRetries', async () => {
    const line = `data: ${JSON.stringify(chunk({ role: 'assistant', content: 'slow' }).data)}\n\n`;
    const drip = [...line].flatMap((character): FakeSseItem[] => [{ raw: character }, { delayMs: 20 }]);
    server.enqueue(sse(drip), okStream);
    const started = Date.now();
    const events = await within(5000, collect(openai(1, 400).stream(user, [])));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(events.at(-1)).toMatchObject({ response: { content: 'fine' } });
    expect(server.requests).toHaveLength(2);
  });

  it('does not cut a stream that takes longer than the timeout in all but keeps sending chunks', async () => {
    const steady = Array.from({ length: 8 }, (_, index): FakeSseItem[] => [
      chunk(index === 0 ? { role: 'assistant', content: 'a' } : { content: 'a' }),
      { delayMs: 150 },
    ]).flat();
    server.enqueue(sse([...steady, chunk({}, { finish_reason: 'stop' })]));
    const events = await within(5000, collect(openai(0, 400).stream(user, [])));
    expect(events.at(-1)).toMatchObject({ response: { content: 'aaaaaaaa' } });
  });
});

describe('a JSON answer to a streaming request (#10 item 15)', () => {
  it('is read and used: the deltas, then the same response call() returns', async () => {
    const body = completion(
      {
        content: 'Sunny.',
        reasoning_content: 'Look it up.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      },
      { finish_reason: 'tool_calls', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
    );
    server.enqueue({ type: 'json', body }, { type: 'json', body });
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client: clientWith(0) });
    const events = await within(5000, collect(adapter.stream(user, [])));
    const called = await within(5000, adapter.call(user, []));
    expect(events).toEqual([
      { type: 'reasoning_delta', delta: 'Look it up.' },
      { type: 'content_delta', delta: 'Sunny.' },
      { type: 'tool_call_delta', index: 0, id: 'call_1', name: 'f', argumentsDelta: '{"a":1}' },
      { type: 'response', response: called },
    ]);
  });

  it('says what came when the JSON is an error body', async () => {
    server.enqueue({ type: 'json', body: { error: { message: 'no such model', type: 'not_found' } } });
    const error = await rejection(collect(openai(0).stream(user, [])));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toBe('openai answered 200 with an error: no such model');
  });

  it('names the content type when a non-SSE body holds no event', async () => {
    server.enqueue({
      type: 'json',
      body: '<html>gateway</html>',
      headers: { 'content-type': 'text/html' },
    });
    const error = await rejection(collect(openai(0).stream(user, [])));
    expect(error).toBeInstanceOf(EmptyResponseError);
    expect((error as Error).message).toContain('content-type "text/html"');
  });
});
