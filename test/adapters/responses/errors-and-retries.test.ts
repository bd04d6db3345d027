import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIResponsesAdapter } from '../../../src/adapters/openai/index.js';
import { ConnectionError } from '../../../src/errors/connection-error.js';
import { ContextLengthError } from '../../../src/errors/context-length-error.js';
import { RateLimitError } from '../../../src/errors/rate-limit-error.js';
import { ServerError } from '../../../src/errors/server-error.js';
import type { ChatMessage } from '../../../src/model/messages.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { startFakeResponsesServer } from './fake-responses-server.js';
import type { FakeResponsesServer, ScriptedAnswer } from './fake-responses-server.js';

let server: FakeResponsesServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeResponsesServer({ contextWindowCharacters: 4000 });
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const user: ChatMessage[] = [{ role: 'user', content: 'Hello?' }];
const answer: ScriptedAnswer = {
  type: 'turn',
  output: [
    { type: 'reasoning', summary: ['Greet back.'] },
    { type: 'message', text: 'Hello!' },
  ],
  usage: {
    input_tokens: 2000,
    input_tokens_details: { cached_tokens: 1536 },
    output_tokens: 120,
    output_tokens_details: { reasoning_tokens: 100 },
    total_tokens: 2120,
  },
};
const rateLimited: ScriptedAnswer = {
  type: 'error',
  status: 429,
  body: {
    error: {
      message: 'Rate limit reached for gpt-5-mini.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
  },
  headers: { 'retry-after-ms': '5' },
};
const overloaded: ScriptedAnswer = {
  type: 'error',
  status: 503,
  body: {
    error: { message: 'The engine is currently overloaded.', type: 'server_error', param: null, code: null },
  },
};

describe('OpenAIResponsesAdapter errors and retries', () => {
  it('retries 429 and 5xx, then answers with usage, cached and reasoning tokens included', async () => {
    server.enqueue(rateLimited, overloaded, answer);
    const adapter = new OpenAIResponsesAdapter({
      model: 'gpt-5-mini',
      client,
      maxRetries: 2,
      retryBaseDelayMs: 1,
    });
    const response = await adapter.call(user, []);
    expect(server.requests.map((request) => request.status)).toEqual([429, 503, 200]);
    expect(response).toMatchObject({
      content: 'Hello!',
      finish_reason: 'stop',
      model: 'gpt-5-mini-2025-08-07',
      requestId: 'req_2',
      usage: {
        promptTokens: 2000,
        completionTokens: 120,
        totalTokens: 2120,
        reasoningTokens: 100,
        cachedPromptTokens: 1536,
      },
    });
  });

  it('throws RateLimitError and ServerError once the retries are spent', async () => {
    server.enqueue(rateLimited, rateLimited, overloaded, overloaded);
    const adapter = new OpenAIResponsesAdapter({
      model: 'gpt-5-mini',
      client,
      maxRetries: 1,
      retryBaseDelayMs: 1,
    });
    await expect(adapter.call(user, [])).rejects.toBeInstanceOf(RateLimitError);
    await expect(adapter.call(user, [])).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(4);
  });

  it("throws ContextLengthError for Responses' context_length_exceeded, without retrying", async () => {
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, maxRetries: 2 });
    const long: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(5000) }];
    const error: unknown = await adapter.call(long, []).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContextLengthError);
    expect((error as ContextLengthError).providerCode).toBe('context_length_exceeded');
    expect(server.requests).toHaveLength(1);
  });

  it("lets the orchestrator's context window recover from context_length_exceeded", async () => {
    server.enqueue(answer);
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, maxRetries: 0 });
    const orchestrator = new ToolOrchestrator(adapter, {}, { contextWindow: { maxTokens: 100_000 } });
    const history: ChatMessage[] = [];
    for (let index = 0; index < 4; index++) {
      const id = `call_${index}`;
      history.push({ role: 'user', content: `Read file ${index}.` });
      history.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id, type: 'function', function: { name: 'read_file', arguments: `{"index":${index}}` } },
        ],
      });
      history.push({ role: 'tool', tool_call_id: id, content: 'z'.repeat(1200) });
    }
    const result = await orchestrator.run([...history, ...user]);
    expect(result.content).toBe('Hello!');
    expect(server.requests.map((request) => request.status)).toEqual([400, 200]);
    const compacted = result.traces.flatMap((event) =>
      event.type === 'context_compacted' ? [event.data.reason] : [],
    );
    expect(compacted).toEqual(['overflow']);
  });

  it('stops waiting for a retry at once when aborted', async () => {
    server.enqueue({ ...rateLimited, headers: { 'retry-after': '30' } });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, maxRetries: 2 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const started = Date.now();
    await expect(adapter.call(user, [], { signal: controller.signal })).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('bounds each attempt by the timeout: the whole body in call, each next event in stream', async () => {
    server.enqueue({ ...answer, delayMs: 3000 }, { ...answer, hangAfterEvents: 2 });
    const quick = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 200 });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client: quick, maxRetries: 0 });
    const called: unknown = await adapter.call(user, []).catch((caught: unknown) => caught);
    expect(called).toBeInstanceOf(ConnectionError);
    expect((called as ConnectionError).message).toContain(
      'did not finish its response within the timeout (200 ms)',
    );
    const streamed: unknown = await (async () => {
      for await (const _event of adapter.stream(user, [])) {
        // Nothing arrives before the stream stalls.
      }
    })().catch((caught: unknown) => caught);
    expect(streamed).toBeInstanceOf(ConnectionError);
    expect((streamed as ConnectionError).message).toContain(
      'sent no stream chunk within the timeout (200 ms)',
    );
  });

  it('lets a stream that keeps coming run past the timeout', async () => {
    server.enqueue({ ...answer, eventDelayMs: 50 });
    const quick = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 200 });
    const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client: quick, maxRetries: 0 });
    const started = Date.now();
    let content: string | null = null;
    for await (const event of adapter.stream(user, []))
      if (event.type === 'response') content = event.response.content;
    expect(content).toBe('Hello!');
    expect(Date.now() - started).toBeGreaterThan(400);
  });
});
