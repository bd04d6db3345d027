import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { ContextLengthError, InvalidRequestError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { TraceEvent } from '../../src/index.js';
import { completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeResponse } from './fake-openai-server.js';
import { textContent } from '../support/transcript.js';

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.close());

function client(): OpenAI {
  return new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2, timeout: 5000 });
}

const openAiRefusal = {
  error: {
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};
const deepSeekRefusal = {
  error: {
    message:
      "This model's maximum context length is 131072 tokens. However, you requested 140123 tokens (140123 in the messages, 0 in the completion). Please reduce the length of the messages or completion.",
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_request_error',
  },
};
const llamaCppRefusal = {
  error: {
    code: 400,
    message: 'the request exceeds the available context size, try increasing it',
    type: 'exceed_context_size_error',
    n_prompt_tokens: 5000,
    n_ctx: 4096,
  },
};
// vLLM's OpenAI-compatible server (its error body nests under `error`, as OpenAI's does).
const vllmRefusal = {
  error: {
    message:
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    type: 'BadRequestError',
    param: null,
    code: 400,
  },
};

describe('a context-length refusal over the wire becomes ContextLengthError', () => {
  it.each([
    ['OpenAI context_length_exceeded', openAiRefusal, 128_000, 130_532],
    ["DeepSeek's maximum context length 400", deepSeekRefusal, 131_072, 140_123],
    ["llama.cpp's exceed_context_size_error", llamaCppRefusal, 4096, 5000],
    ["vLLM's maximum context length 400", vllmRefusal, 4096, 5000],
  ])('%s', async (_name, body, maxContextTokens, requestedTokens) => {
    server.enqueue({ type: 'json', status: 400, body });
    const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', client: client() });
    const error = await adapter
      .call([{ role: 'user', content: 'hi' }], [])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContextLengthError);
    expect(ContextLengthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'context_length_exceeded',
      status: 400,
      retryable: false,
      maxContextTokens,
      requestedTokens,
    });
    expect((error as Error).message).toMatch(/turn on the orchestrator's contextWindow option/);
    // Not retried: the same request would be refused again.
    expect(server.requests).toHaveLength(1);
  });

  it('leaves other 400s as InvalidRequestError', async () => {
    server.enqueue({
      type: 'json',
      status: 400,
      body: {
        error: {
          message: "Invalid 'messages[1].tool_calls': empty array.",
          type: 'invalid_request_error',
          code: 'empty_array',
        },
      },
    });
    const adapter = new OpenAIAdapter({ model: 'gpt-4o', client: client() });
    const error = await adapter
      .call([{ role: 'user', content: 'hi' }], [])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).not.toBeInstanceOf(ContextLengthError);
  });
});

describe('the loop recovers from a context-length refusal once, with contextWindow', () => {
  const readFile = defineTool({
    name: 'read_file',
    description: 'Read a file',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => `${path}\n${'const x = 1;\n'.repeat(800)}`,
  });
  const toolTurn = (index: number): FakeResponse => ({
    type: 'json',
    body: completion(
      {
        content: null,
        tool_calls: [
          {
            id: `call_${index}`,
            type: 'function',
            function: { name: 'read_file', arguments: JSON.stringify({ path: `f${index}.ts` }) },
          },
        ],
      },
      { finish_reason: 'tool_calls' },
    ),
  });
  const script = (): FakeResponse[] => [
    toolTurn(0),
    toolTurn(1),
    toolTurn(2),
    { type: 'json', status: 400, body: openAiRefusal },
    { type: 'json', body: completion({ content: 'done' }) },
  ];
  const messagesOf = (index: number): { role: string; content: string | null }[] =>
    (server.requests[index]!.body as { messages: { role: string; content: string | null }[] }).messages;

  it('reduces what it sends and retries the refused call', async () => {
    server.enqueue(...script());
    const events: TraceEvent[] = [];
    const orchestrator = new ToolOrchestrator(
      new OpenAIAdapter({ model: 'gpt-4o', client: client() }),
      { read_file: readFile },
      { contextWindow: { maxTokens: 1_000_000 }, traceEmitter: (event) => void events.push(event) },
    );
    const result = await orchestrator.run([{ role: 'user', content: 'read' }]);
    expect(result.content).toBe('done');
    expect(server.requests).toHaveLength(5);
    const refused = messagesOf(3).filter((message) => message.role === 'tool');
    const retried = messagesOf(4).filter((message) => message.role === 'tool');
    expect(refused.map((message) => message.content!.startsWith('[Elided'))).toEqual([false, false, false]);
    // The latest turn's result stays; the older ones are masked.
    expect(retried.map((message) => message.content!.startsWith('[Elided'))).toEqual([true, true, false]);
    const compaction = events.find((event) => event.type === 'context_compacted');
    expect(compaction?.data).toMatchObject({ strategy: 'mask_observations', reason: 'overflow' });
    expect(compaction?.data.maskedToolCalls.map((call) => call.id)).toEqual(['call_0', 'call_1']);
    // The transcript is complete; the refused attempt is not a turn.
    expect(
      result.messages
        .filter((message) => message.role === 'tool')
        .every((message) => !textContent(message.content).startsWith('[Elided')),
    ).toBe(true);
    expect(result.turns).toBe(4);
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
  });

  it('fails with ContextLengthError that says how to turn it on, without contextWindow', async () => {
    server.enqueue(...script());
    const orchestrator = new ToolOrchestrator(new OpenAIAdapter({ model: 'gpt-4o', client: client() }), {
      read_file: readFile,
    });
    const error = await orchestrator
      .run([{ role: 'user', content: 'read' }])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContextLengthError);
    expect((error as Error).message).toMatch(/contextWindow: \{ maxTokens: 128_000 \}/);
    expect(server.requests).toHaveLength(4);
  });
});
