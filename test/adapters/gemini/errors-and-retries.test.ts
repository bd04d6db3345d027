import { GoogleGenAI } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeminiAdapter } from '../../../src/adapters/gemini/index.js';
import { ConnectionError } from '../../../src/errors/connection-error.js';
import { ContextLengthError } from '../../../src/errors/context-length-error.js';
import { InvalidRequestError } from '../../../src/errors/invalid-request-error.js';
import { RateLimitError } from '../../../src/errors/rate-limit-error.js';
import { ServerError } from '../../../src/errors/server-error.js';
import { UnexpectedResponseError } from '../../../src/errors/unexpected-response-error.js';
import type { ChatMessage } from '../../../src/model/messages.js';
import type { ModelStreamEvent } from '../../../src/model/model-adapter.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { startFakeGeminiServer } from './fake-gemini-server.js';
import type { FakeGeminiServer, ScriptedAnswer } from './fake-gemini-server.js';

let server: FakeGeminiServer;
let client: GoogleGenAI;
beforeEach(async () => {
  server = await startFakeGeminiServer({ contextWindowTokens: 2000 });
  client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.baseURL } });
});
afterEach(() => server.close());

const user: ChatMessage[] = [{ role: 'user', content: 'Hello?' }];
const answer: ScriptedAnswer = { type: 'turn', parts: [{ type: 'text', text: 'Hello!' }] };
const retryInfo = (delay: string): Record<string, unknown> => ({
  '@type': 'type.googleapis.com/google.rpc.RetryInfo',
  retryDelay: delay,
});
const exhausted = (delay = '0.01s'): ScriptedAnswer => ({
  type: 'error',
  status: 429,
  statusName: 'RESOURCE_EXHAUSTED',
  message: 'You exceeded your current quota, please check your plan and billing details.',
  details: [retryInfo(delay)],
});
const unavailable: ScriptedAnswer = {
  type: 'error',
  status: 503,
  statusName: 'UNAVAILABLE',
  message: 'The model is overloaded. Please try again later.',
};
const internal: ScriptedAnswer = {
  type: 'error',
  status: 500,
  statusName: 'INTERNAL',
  message: 'An internal error has occurred.',
};

function adapter(
  maxRetries = 3,
  options: { maxRetryDelayMs?: number; timeout?: number } = {},
): GeminiAdapter {
  return new GeminiAdapter({
    model: 'gemini-2.5-flash',
    client,
    maxRetries,
    retryBaseDelayMs: 1,
    timeout: options.timeout ?? 5000,
    ...(options.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: options.maxRetryDelayMs }),
  });
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const collected: ModelStreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

describe('GeminiAdapter errors and retries', () => {
  for (const stream of [false, true]) {
    it(`retries 429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE and 500 INTERNAL through ToolOrchestrator (stream: ${stream})`, async () => {
      server.enqueue(exhausted(), unavailable, internal, answer);
      const result = await new ToolOrchestrator(adapter(), {}, { stream }).run(user);
      expect(result.content).toBe('Hello!');
      expect(server.requests.map((request) => request.status)).toEqual([429, 503, 500, 200]);
    });
  }

  it('types what it cannot retry: a 503 past its retries is a ServerError, a 429 a RateLimitError with the RetryInfo wait', async () => {
    server.enqueue(unavailable, unavailable);
    const failure = await adapter(1)
      .call(user, [])
      .catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(ServerError);
    expect(failure).toMatchObject({ status: 503, providerCode: 'UNAVAILABLE', provider: 'gemini' });
    expect((failure as Error).message).toContain('gemini answered 503: The model is overloaded');
    server.enqueue(exhausted('30s'));
    const limited = await adapter(3, { maxRetryDelayMs: 1000 })
      .call(user, [])
      .catch((thrown: unknown) => thrown);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, providerCode: 'RESOURCE_EXHAUSTED', retryAfterMs: 30_000 });
    expect(server.requests).toHaveLength(3);
  });

  it('maps "The input token count exceeds the maximum" to ContextLengthError with both figures', async () => {
    const long: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(10_000) }];
    const tooLong = await adapter()
      .call(long, [])
      .catch((thrown: unknown) => thrown);
    expect(tooLong).toBeInstanceOf(ContextLengthError);
    expect(tooLong).toMatchObject({ status: 400, maxContextTokens: 2000, retryable: false });
    expect((tooLong as ContextLengthError).requestedTokens).toBeGreaterThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  for (const stream of [false, true]) {
    it(`ends the run as a refusal, with a warning, when Gemini stops for SAFETY (stream: ${stream})`, async () => {
      server.enqueue({ type: 'turn', parts: [], finishReason: 'SAFETY' });
      const warnings: string[] = [];
      const orchestrator = new ToolOrchestrator(adapter(), {}, { stream });
      orchestrator.on('warning', (event) => warnings.push(event.data.code));
      const result = await orchestrator.run(user);
      expect(result.stopReason).toBe('refusal');
      expect(warnings).toEqual(['refusal']);
    });

    it(`throws InvalidRequestError naming the blockReason of a blocked prompt (stream: ${stream})`, async () => {
      server.enqueue({ type: 'blocked', blockReason: 'PROHIBITED_CONTENT' });
      const orchestrator = new ToolOrchestrator(adapter(), {}, { stream });
      const failure = await orchestrator.run(user).catch((thrown: unknown) => thrown);
      expect(failure).toBeInstanceOf(InvalidRequestError);
      expect(failure).toMatchObject({ providerCode: 'PROHIBITED_CONTENT', retryable: false });
      expect(server.requests).toHaveLength(1);
    });

    it(`retries a MALFORMED_FUNCTION_CALL, and types it once the retries are spent (stream: ${stream})`, async () => {
      const malformed: ScriptedAnswer = { type: 'turn', parts: [], finishReason: 'MALFORMED_FUNCTION_CALL' };
      server.enqueue(malformed, answer);
      const result = await new ToolOrchestrator(adapter(), {}, { stream }).run(user);
      expect(result.content).toBe('Hello!');
      expect(server.requests).toHaveLength(2);
      server.enqueue(malformed);
      const failure = await new ToolOrchestrator(adapter(0), {}, { stream })
        .run(user)
        .catch((thrown: unknown) => thrown);
      expect(failure).toBeInstanceOf(UnexpectedResponseError);
      expect(failure).toMatchObject({ providerCode: 'MALFORMED_FUNCTION_CALL', retryable: true });
    });
  }

  it('stops reading at once when the caller aborts mid-stream, and throws the signal reason', async () => {
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: 'A long answer.' }], hangAfterChunks: 1 });
    const controller = new AbortController();
    const reason = new Error('stop');
    const events: ModelStreamEvent[] = [];
    const started = Date.now();
    const failure = await (async () => {
      for await (const event of adapter().stream(user, [], { signal: controller.signal })) {
        events.push(event);
        controller.abort(reason);
      }
    })().catch((thrown: unknown) => thrown);
    expect(failure).toBe(reason);
    expect(events).toEqual([{ type: 'content_delta', delta: 'A long ' }]);
    await server.disconnected(0);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('gives up on a stream that sends no chunk within the timeout, with a ConnectionError', async () => {
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: 'A long answer.' }], hangAfterChunks: 0 });
    const failure = await collect(adapter(0, { timeout: 300 }).stream(user, [])).catch(
      (thrown: unknown) => thrown,
    );
    expect(failure).toBeInstanceOf(ConnectionError);
    expect((failure as Error).message).toContain('within the timeout (300 ms)');
  });
});
