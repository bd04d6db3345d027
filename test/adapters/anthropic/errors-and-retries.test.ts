import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import { AuthenticationError } from '../../../src/errors/authentication-error.js';
import { ContextLengthError } from '../../../src/errors/context-length-error.js';
import { RateLimitError } from '../../../src/errors/rate-limit-error.js';
import { ServerError } from '../../../src/errors/server-error.js';
import type { ChatMessage } from '../../../src/model/messages.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer, ScriptedAnswer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let client: Anthropic;
beforeEach(async () => {
  server = await startFakeAnthropicServer({ contextWindowTokens: 2000 });
  client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const user: ChatMessage[] = [{ role: 'user', content: 'Hello?' }];
const answer: ScriptedAnswer = { type: 'turn', content: [{ type: 'text', text: 'Hello!' }] };
const error = (
  status: number,
  errorType: string,
  message: string,
  headers?: Record<string, string>,
): ScriptedAnswer => ({
  type: 'error',
  status,
  errorType,
  message,
  ...(headers === undefined ? {} : { headers }),
});
const rateLimited = error(
  429,
  'rate_limit_error',
  'Number of request tokens has exceeded your per-minute rate limit',
  { 'retry-after': '0.01' },
);
const overloaded = error(529, 'overloaded_error', 'Overloaded', { 'retry-after': '0.01' });
const apiError = error(500, 'api_error', 'Internal server error');

function adapter(maxRetries = 3, maxRetryDelayMs?: number): AnthropicAdapter {
  return new AnthropicAdapter({
    model: 'claude-sonnet-4-6',
    client,
    maxRetries,
    retryBaseDelayMs: 1,
    ...(maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs }),
  });
}

describe('AnthropicAdapter errors and retries', () => {
  for (const stream of [false, true]) {
    it(`retries 429 rate_limit_error, 529 overloaded_error and 500 api_error through ToolOrchestrator (stream: ${stream})`, async () => {
      server.enqueue(rateLimited, overloaded, apiError, answer);
      const result = await new ToolOrchestrator(adapter(), {}, { stream }).run(user);
      expect(result.content).toBe('Hello!');
      expect(server.requests.map((request) => request.status)).toEqual([429, 529, 500, 200]);
      expect(result.usage.promptTokens).toBeGreaterThan(0);
    });
  }

  it('types what it cannot retry: a 529 past its retries is a ServerError with the request id', async () => {
    server.enqueue(overloaded, overloaded);
    const failure = await adapter(1)
      .call(user, [])
      .catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(ServerError);
    expect(failure).toMatchObject({
      status: 529,
      providerCode: 'overloaded_error',
      requestId: 'req_0001',
      provider: 'anthropic',
    });
    expect((failure as Error).message).toContain('anthropic answered 529: Overloaded');
  });

  it('does not wait longer than maxRetryDelayMs for a retry-after', async () => {
    server.enqueue(error(429, 'rate_limit_error', 'Slow down', { 'retry-after': '30' }), answer);
    const failure = await adapter(3, 1000)
      .call(user, [])
      .catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(RateLimitError);
    expect(failure).toMatchObject({ retryAfterMs: 30_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('maps "prompt is too long" to ContextLengthError with both figures, and 401 to AuthenticationError', async () => {
    const long: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(10_000) }];
    const tooLong = await adapter()
      .call(long, [])
      .catch((thrown: unknown) => thrown);
    expect(tooLong).toBeInstanceOf(ContextLengthError);
    expect(tooLong).toMatchObject({ status: 400, maxContextTokens: 2000, retryable: false });
    expect((tooLong as ContextLengthError).requestedTokens).toBeGreaterThan(2000);
    server.enqueue(error(401, 'authentication_error', 'invalid x-api-key'));
    const unauthorized = await adapter()
      .call(user, [])
      .catch((thrown: unknown) => thrown);
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    expect((unauthorized as Error).message).toContain('ANTHROPIC_API_KEY');
  });

  it('is refused by the API without max_tokens, and always sends one (16000 by default)', async () => {
    server.enqueue(answer);
    await adapter().call(user, []);
    expect(server.requests[0]!.body['max_tokens']).toBe(16_000);
    server.enqueue(answer);
    const response = await client.messages
      .create({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Hi' }] } as never)
      .catch((thrown: unknown) => thrown);
    expect(response).toMatchObject({ status: 400 });
    expect(server.requests[1]!.refusal).toBe('max_tokens: Field required');
  });
});
