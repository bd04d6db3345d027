import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ToolOrchestrator,
  ToolOrchestratorError,
  UnexpectedResponseError,
  defineTool,
} from '../../src/index.js';
import type { ChatMessage, ModelAdapter, ModelResponse, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectPairedToolEvents, expectValidTranscript } from '../support/transcript.js';

const executed = vi.fn();
const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => {
    executed(a, b);
    return a + b;
  },
});
const ping = defineTool({
  name: 'ping',
  description: 'Ping',
  parameters: z.object({}),
  execute: () => 'pong',
});
const tools = { add, ping };
const user: ChatMessage = { role: 'user', content: 'go' };

/** An adapter that answers from a list of values of any shape, and records the transcripts it was sent. */
function hostileAdapter(responses: readonly unknown[]): ModelAdapter & { received: ChatMessage[][] } {
  const received: ChatMessage[][] = [];
  return {
    provider: 'hostile',
    received,
    async call(messages) {
      received.push(structuredClone([...messages]));
      if (received.length > responses.length) return { content: 'done', finish_reason: 'stop' };
      return responses[received.length - 1] as ModelResponse;
    },
  };
}

const toolCall = (id: unknown, name: unknown, args: unknown): unknown => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

describe('responses outside the adapter contract', () => {
  it('answers calls whose arguments are not a string with a tool error, without running them', async () => {
    executed.mockClear();
    const adapter = hostileAdapter([
      {
        content: null,
        finish_reason: 'tool_calls',
        tool_calls: [
          toolCall('c1', 'add', { a: 1, b: 2 }),
          toolCall('c2', 'add', 7),
          toolCall('c3', 'add', '{"a":2,"b":3}'),
        ],
      },
    ]);
    const events: TraceEvent[] = [];
    const result = await new ToolOrchestrator(adapter, tools, {
      traceEmitter: (event) => void events.push(event),
    }).run([user]);

    expect(result.stopReason).toBe('final');
    expect(executed.mock.calls).toEqual([[2, 3]]);
    // The transcript carries the arguments as JSON text, so it can be sent back to a provider.
    expect(result.messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'c1', function: { name: 'add', arguments: '{"a":1,"b":2}' } },
        { id: 'c2', function: { name: 'add', arguments: '7' } },
        { id: 'c3', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
      ],
    });
    const toolResults = result.traces.filter((event) => event.type === 'tool_result');
    expect(toolResults.map((event) => event.data.errorCode)).toEqual([
      'invalid_tool_call',
      'invalid_tool_call',
      undefined,
    ]);
    expect(toolResults[0]!.data.error).toBe(
      'The arguments for tool "add" arrived as an object ({"a":1,"b":2}), not as a JSON string, so the call was not run (the model adapter broke its contract: function.arguments must be a string). Send the arguments again as one JSON object.',
    );
    expect(toolResults[1]!.data.error).toMatch(/arrived as a number \(7\)/);
    expect(JSON.parse(result.messages[2]!.content as string)).toEqual({ error: toolResults[0]!.data.error });
    expect(result.messages[4]).toEqual({ role: 'tool', tool_call_id: 'c3', content: '5' });
    expectValidTranscript(result.messages);
    for (const sent of adapter.received) expectValidTranscript(sent);
    expectPairedToolEvents(result.traces);
    expect(events).toEqual(result.traces);
  });

  it('treats null tool_calls as none, and null or missing ids and arguments as absent', async () => {
    const adapter = hostileAdapter([
      { content: null, tool_calls: [toolCall(null, 'ping', null), toolCall(undefined, 'ping', undefined)] },
      { content: 'done', tool_calls: null, usage: null },
    ]);
    const result = await new ToolOrchestrator(adapter, tools).run([user]);
    expect(result.stopReason).toBe('final');
    expect(result.content).toBe('done');
    expect(
      result.messages.filter((message) => message.role === 'tool').map((message) => message.content),
    ).toEqual(['pong', 'pong']);
    expect(result.messages[1]).toMatchObject({
      tool_calls: [
        { id: 'call_0_0', function: { arguments: '' } },
        { id: 'call_0_1', function: { arguments: '' } },
      ],
    });
    expectValidTranscript(result.messages);
    expectPairedToolEvents(result.traces);
  });

  it('ignores usage counts that are not numbers instead of concatenating them', async () => {
    const adapter = hostileAdapter([
      { content: 'ok', usage: { promptTokens: '5', completionTokens: 2, totalTokens: Number.NaN } },
    ]);
    const result = await new ToolOrchestrator(adapter, tools).run([user]);
    expect(result.usage).toEqual({
      promptTokens: 0,
      completionTokens: 2,
      totalTokens: 0,
      reasoningTokens: 0,
      cachedPromptTokens: 0,
    });
  });

  const unusable: readonly (readonly [string, unknown, RegExp])[] = [
    ['a null response', null, /resolved to null, not a response object/],
    ['an undefined response', undefined, /resolved to undefined/],
    ['a number', 42, /resolved to a number \(42\)/],
    ['a string', 'hello', /resolved to a string \("hello"\)/],
    ['an array', [], /resolved to an array/],
    ['content that is a number', { content: 5 }, /content is a number \(5\), not a string or null/],
    [
      'reasoning_content that is an object',
      { content: 'x', reasoning_content: {} },
      /reasoning_content is an object/,
    ],
    [
      'tool_calls that is an object',
      { content: null, tool_calls: { 0: {} } },
      /tool_calls is an object .*not an array/,
    ],
    ['tool_calls that is a string', { content: null, tool_calls: 'add' }, /tool_calls is a string/],
    [
      'a null tool call',
      { content: null, tool_calls: [toolCall('c1', 'add', '{}'), null] },
      /tool_calls\[1\] is null/,
    ],
    ['a tool call that is a number', { content: null, tool_calls: [3] }, /tool_calls\[0\] is a number/],
    [
      'a tool call without function',
      { content: null, tool_calls: [{ id: 'c1', type: 'function' }] },
      /tool_calls\[0\]\.function is undefined, not an object/,
    ],
    [
      'a tool call with a null function',
      { content: null, tool_calls: [{ id: 'c1', type: 'function', function: null }] },
      /tool_calls\[0\]\.function is null/,
    ],
    [
      'a tool call whose name is a number',
      { content: null, tool_calls: [toolCall('c1', 5, '{}')] },
      /tool_calls\[0\]\.function\.name is a number \(5\), not a string/,
    ],
    [
      'a tool call whose name is missing',
      { content: null, tool_calls: [toolCall('c1', undefined, '{}')] },
      /tool_calls\[0\]\.function\.name is undefined/,
    ],
    [
      'a tool call whose id is a number',
      { content: null, tool_calls: [toolCall(7, 'add', '{}')] },
      /tool_calls\[0\]\.id is a number \(7\), not a string/,
    ],
    ['warnings that is a string', { content: 'x', warnings: 'careful' }, /warnings is a string/],
    [
      'a warning without a message',
      { content: 'x', warnings: [{ code: 'tool_choice_with_thinking' }] },
      /warnings\[0\] is an object .*not an object \{ code: string, message: string \}/,
    ],
  ];

  it.each(unusable)(
    'fails with UnexpectedResponseError for %s, before touching the transcript',
    async (_name, response, message) => {
      executed.mockClear();
      const adapter = hostileAdapter([response]);
      const events: TraceEvent[] = [];
      const run = new ToolOrchestrator(adapter, tools, {
        traceEmitter: (event) => void events.push(event),
      }).run([user]);
      const error = await run.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(ToolOrchestratorError.isInstance(error)).toBe(true);
      const typed = error as UnexpectedResponseError;
      expect(typed.code).toBe('model_error');
      expect(typed.provider).toBe('hostile');
      expect(typed.retryable).toBe(false);
      expect(typed.rawOutput).toBe(response);
      expect(typed.message).toMatch(message);
      expect(typed.message).toMatch(/^The model adapter "hostile" /);
      expect(typed.message).toMatch(/docs\/adapters\.md/);
      expect(executed).not.toHaveBeenCalled();
      expect(events.map((event) => event.type)).toEqual(['run_start', 'error', 'run_end']);
      expect(events[1]!.data).toMatchObject({ name: 'UnexpectedResponseError', code: 'model_error' });
    },
  );

  it('turns a response whose fields throw when read into UnexpectedResponseError', async () => {
    // `then` must read as absent, or no promise could resolve to the Proxy at all.
    const trap = new Proxy(
      {},
      {
        get(_target, key) {
          if (key === 'then') return undefined;
          throw new Error('trap');
        },
      },
    );
    const error = await new ToolOrchestrator(hostileAdapter([trap]), tools).run([user]).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(/could not be read \(trap\)/);
  });

  it('checks streamed responses and stream events the same way', async () => {
    const scripted = new ScriptedAdapter([
      { content: null, tool_calls: [toolCall('c1', 'add', { a: 1, b: 1 })] } as ModelResponse,
      { content: null, tool_calls: [null] } as unknown as ModelResponse,
    ]);
    const orchestrator = new ToolOrchestrator(scripted, tools, { stream: true });
    await expect(orchestrator.run([user])).rejects.toThrow(/tool_calls\[0\] is null/);
    expect(scripted.calls).toHaveLength(2);
    expectValidTranscript(scripted.calls[1]!.messages);

    const nullEvent: ModelAdapter = {
      provider: 'hostile',
      call: async () => ({ content: 'x' }),
      async *stream() {
        yield { type: 'content_delta', delta: 'a' };
        yield null as never;
      },
    };
    await expect(new ToolOrchestrator(nullEvent, tools, { stream: true }).run([user])).rejects.toThrow(
      UnexpectedResponseError,
    );
    const notIterable: ModelAdapter = {
      provider: 'hostile',
      call: async () => ({ content: 'x' }),
      stream: () => ({ content: 'x' }) as never,
    };
    await expect(new ToolOrchestrator(notIterable, tools, { stream: true }).run([user])).rejects.toThrow(
      /stream\(\) returned an object .*not an async iterable/,
    );
  });
});
