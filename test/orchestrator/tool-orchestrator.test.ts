import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  InvalidArgumentError,
  MaxTurnsExceededError,
  ToolDefinitionError,
  ToolOrchestrator,
  defineTool,
  toolCalled,
} from '../../src/index.js';
import type { ChatMessage, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { textContent } from '../support/transcript.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const user = (content: string): ChatMessage => ({ role: 'user', content });
let counter = 0;
const deterministic = { now: () => 1000, generateId: () => `id-${counter++}` };

describe('ToolOrchestrator', () => {
  it('runs repeated tool calls, appends every result to the transcript and returns the final answer', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 2, b: 3 }, 'c1']]),
      ScriptedAdapter.toolCalls([['add', { a: 5, b: 10 }, 'c2']]),
      ScriptedAdapter.text('15'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, { add }, { maxTurns: 10 });
    const input = [user('add 2, 3 and 10')];
    const result = await orchestrator.run(input, 'You are a calculator.');

    expect(result.content).toBe('15');
    expect(result.stopReason).toBe('final');
    expect(result.turns).toBe(3);
    expect(input).toHaveLength(1);
    expect(result.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(result.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '5' });
    expect(result.messages[5]).toEqual({ role: 'tool', tool_call_id: 'c2', content: '15' });
    // The adapter saw the growing transcript and the tool definitions.
    expect(adapter.calls[1]!.messages).toHaveLength(4);
    expect(adapter.calls[2]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c2', content: '15' });
    expect(adapter.calls[0]!.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'add',
          description: 'Add two numbers',
          parameters: expect.objectContaining({
            type: 'object',
            properties: { a: { type: 'number' }, b: { type: 'number' } },
            required: ['a', 'b'],
          }),
        },
      },
    ]);
    expect(result.traces.map((event) => event.type)).toEqual([
      'run_start',
      'llm_call',
      'tool_call',
      'tool_result',
      'llm_call',
      'tool_call',
      'tool_result',
      'llm_call',
      'run_end',
    ]);
    expect(result.traces.map((event) => event.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(result.traces.every((event) => event.runId === result.runId)).toBe(true);
  });

  it('keeps a caller system message instead of adding the system prompt', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('ok')]);
    const result = await new ToolOrchestrator(adapter, {}).run(
      [{ role: 'system', content: 'mine' }, user('hi')],
      'ignored',
    );
    expect(result.messages[0]).toEqual({ role: 'system', content: 'mine' });
    expect(result.messages.filter((message) => message.role === 'system')).toHaveLength(1);
  });

  it('sends [] as tools for an empty registry', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('hello')]);
    const result = await new ToolOrchestrator(adapter, {}).run([user('hi')]);
    expect(adapter.calls[0]!.tools).toEqual([]);
    expect(result.content).toBe('hello');
  });

  it('turns null content into an empty string', async () => {
    const adapter = new ScriptedAdapter([{ content: null }]);
    const result = await new ToolOrchestrator(adapter, {}).run([user('hi')]);
    expect(result.content).toBe('');
    expect(result.stopReason).toBe('final');
  });

  it('stops at maxTurns with a warning and the last content, printing nothing', async () => {
    const log = vi.spyOn(console, 'log');
    const warn = vi.spyOn(console, 'warn');
    const adapter = new ScriptedAdapter(
      Array.from({ length: 3 }, (_, index) =>
        ScriptedAdapter.toolCalls([['add', { a: index, b: 1 }, `c${index}`]], {
          content: `thinking ${index}`,
        }),
      ),
    );
    const result = await new ToolOrchestrator(adapter, { add }, { maxTurns: 3 }).run([user('loop')]);
    expect(result.stopReason).toBe('max_turns');
    expect(result.turns).toBe(3);
    expect(result.content).toBe('thinking 2');
    const warning = result.traces.find((event) => event.type === 'warning');
    expect(warning?.data).toMatchObject({ code: 'max_turns' });
    expect(log).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    log.mockRestore();
    warn.mockRestore();
  });

  it("makes one last call with tools disabled for onCutShort: 'final_answer'", async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 1, b: 1 }]]),
      ScriptedAdapter.toolCalls([['add', { a: 2, b: 2 }]]),
      ScriptedAdapter.text('The answer is 4'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { add },
      { maxTurns: 2, onCutShort: 'final_answer' },
    ).run([user('go')]);
    expect(result.stopReason).toBe('max_turns');
    expect(result.turns).toBe(3);
    expect(result.content).toBe('The answer is 4');
    expect(adapter.calls[2]!.options.toolChoice).toBe('none');
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: 'The answer is 4' });
  });

  it('appends finalAnswerPrompt as a user message before the final-answer call', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 1, b: 1 }]]),
      ScriptedAdapter.text('Summary: 1 + 1 = 2'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { add },
      {
        maxTurns: 1,
        onCutShort: 'final_answer',
        finalAnswerPrompt: 'Stop calling tools and summarize.',
      },
    ).run([user('go')]);
    expect(adapter.calls[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Stop calling tools and summarize.',
    });
    expect(adapter.calls[1]!.options.toolChoice).toBe('none');
    expect(result.messages.slice(-2)).toEqual([
      { role: 'user', content: 'Stop calling tools and summarize.' },
      { role: 'assistant', content: 'Summary: 1 + 1 = 2' },
    ]);
    expect(result.content).toBe('Summary: 1 + 1 = 2');
  });

  it("throws MaxTurnsExceededError with the partial result for onCutShort: 'throw'", async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.toolCalls([['add', { a: 1, b: 1 }]])]);
    const run = new ToolOrchestrator(adapter, { add }, { maxTurns: 1, onCutShort: 'throw' }).run([
      user('go'),
    ]);
    const error = await run.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    const partial = (error as MaxTurnsExceededError<{ messages: ChatMessage[] }>).result;
    expect(partial.messages.at(-1)).toMatchObject({ role: 'tool', content: '2' });
    expect((error as Error).message).toContain('maxTurns (1)');
  });

  it('ends on a stop condition after the named tool ran', async () => {
    const finish = defineTool({
      name: 'finish',
      description: 'Finish',
      parameters: z.object({ summary: z.string() }),
      execute: ({ summary }) => `done: ${summary}`,
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 1, b: 2 }]]),
      ScriptedAdapter.toolCalls([['finish', { summary: 'sum is 3' }, 'f1']]),
      ScriptedAdapter.text('never reached'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { add, finish },
      { stopWhen: toolCalled('finish') },
    ).run([user('go')]);
    expect(result.stopReason).toBe('stop_condition');
    expect(result.turns).toBe(2);
    expect(adapter.remaining).toBe(1);
    expect(result.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'f1', content: 'done: sum is 3' });
  });

  it("runs one turn's calls sequentially by default and in parallel with toolConcurrency, in call order", async () => {
    const makeRegistry = (log: string[]) => ({
      slow: defineTool({
        name: 'slow',
        description: 'Waits',
        parameters: z.object({ id: z.string(), ms: z.number() }),
        execute: async ({ id, ms }) => {
          log.push(`start ${id}`);
          await new Promise((resolve) => setTimeout(resolve, ms));
          log.push(`end ${id}`);
          return id;
        },
      }),
    });
    const script = () => [
      ScriptedAdapter.toolCalls([
        ['slow', { id: 'a', ms: 30 }, 'a'],
        ['slow', { id: 'b', ms: 1 }, 'b'],
        ['slow', { id: 'c', ms: 10 }, 'c'],
      ]),
      ScriptedAdapter.text('done'),
    ];
    const sequentialLog: string[] = [];
    const sequential = await new ToolOrchestrator(
      new ScriptedAdapter(script()),
      makeRegistry(sequentialLog),
    ).run([user('go')]);
    expect(sequentialLog).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);

    const parallelLog: string[] = [];
    const parallel = await new ToolOrchestrator(new ScriptedAdapter(script()), makeRegistry(parallelLog), {
      toolConcurrency: 3,
    }).run([user('go')]);
    expect(parallelLog.slice(0, 3)).toEqual(['start a', 'start b', 'start c']);
    expect(parallelLog.indexOf('end b')).toBeLessThan(parallelLog.indexOf('end a'));
    for (const result of [sequential, parallel]) {
      expect(result.messages.filter((message) => message.role === 'tool')).toEqual([
        { role: 'tool', tool_call_id: 'a', content: 'a' },
        { role: 'tool', tool_call_id: 'b', content: 'b' },
        { role: 'tool', tool_call_id: 'c', content: 'c' },
      ]);
    }
  });

  it('sends a tool error back as an {error} result with a tool_result trace, and goes on', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['broken', {}]]),
      ScriptedAdapter.text('sorry'),
    ]);
    const result = await new ToolOrchestrator(adapter, { broken }).run([user('go')]);
    const toolMessage = result.messages.find((message) => message.role === 'tool');
    expect(JSON.parse(toolMessage!.content as string)).toEqual({
      error: 'Tool "broken" failed: disk on fire',
    });
    const traced = result.traces.find((event) => event.type === 'tool_result');
    expect(traced?.data).toMatchObject({
      name: 'broken',
      errorCode: 'tool_error',
      error: 'Tool "broken" failed: disk on fire',
    });
    expect(result.content).toBe('sorry');
  });

  it('makes ids reused across turns unique too', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 1, b: 1 }, 'call_0']]),
      ScriptedAdapter.toolCalls([['add', { a: 2, b: 2 }, 'call_0']]),
      ScriptedAdapter.text('ok'),
    ]);
    const result = await new ToolOrchestrator(adapter, { add }).run([user('go')]);
    const toolIds = result.messages.flatMap((message) =>
      message.role === 'tool' ? [message.tool_call_id] : [],
    );
    expect(toolIds).toEqual(['call_0', 'call_0_2']);
  });

  it('answers duplicate tool call ids once each and keeps the original id in the trace', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['add', { a: 1, b: 1 }, 'dup'],
        ['add', { a: 2, b: 2 }, 'dup'],
        ['add', { a: 3, b: 3 }, ''],
      ]),
      ScriptedAdapter.text('ok'),
    ]);
    const result = await new ToolOrchestrator(adapter, { add }).run([user('go')]);
    const assistant = result.messages.find((message) => message.role === 'assistant');
    const ids = (assistant as unknown as { tool_calls: { id: string }[] }).tool_calls.map(
      (toolCall) => toolCall.id,
    );
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('dup');
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(ids);
    expect(toolMessages.map((message) => message.content)).toEqual(['2', '4', '6']);
    const renamed = result.traces.filter(
      (event) => event.type === 'tool_call' && event.data.originalId !== undefined,
    );
    expect(renamed.map((event) => (event.data as { originalId: string }).originalId)).toEqual(['dup', '']);
    // The llm_call event keeps the response exactly as the model sent it.
    const llmCall = result.traces.find((event) => event.type === 'llm_call');
    expect(
      (llmCall?.data as unknown as { response: { tool_calls: { id: string }[] } }).response.tool_calls.map(
        (call) => call.id,
      ),
    ).toEqual(['dup', 'dup', '']);
  });

  it('keeps reasoning_content on assistant messages exactly as received and emits it', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 1, b: 2 }]], { reasoning_content: 'I should add.' }),
      ScriptedAdapter.text('3', { reasoning_content: '' }),
    ]);
    const result = await new ToolOrchestrator(adapter, { add }).run([user('go')]);
    const assistants = result.messages.filter((message) => message.role === 'assistant');
    expect(assistants.map((message) => message.reasoning_content)).toEqual(['I should add.', '']);
    expect(
      result.traces.filter((event) => event.type === 'reasoning_content').map((event) => event.data),
    ).toEqual([{ content: 'I should add.' }]);
  });

  it('snapshots llm_call messages so later turns do not change earlier events', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 1, b: 2 }]]),
      ScriptedAdapter.text('3'),
    ]);
    const result = await new ToolOrchestrator(adapter, { add }).run([user('go')]);
    const calls = result.traces.filter((event) => event.type === 'llm_call');
    expect(calls[0]!.data.messages).toHaveLength(1);
    expect(calls[1]!.data.messages).toHaveLength(3);
    expect(JSON.parse(JSON.stringify(calls[0])).data.messages).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('sums usage over the run', async () => {
    const usage = {
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      reasoningTokens: 1,
      cachedPromptTokens: 2,
    };
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 1, b: 2 }]], { usage }),
      ScriptedAdapter.text('3', { usage }),
    ]);
    const result = await new ToolOrchestrator(adapter, { add }).run([user('go')]);
    expect(result.usage).toEqual({
      promptTokens: 20,
      completionTokens: 10,
      totalTokens: 30,
      reasoningTokens: 2,
      cachedPromptTokens: 4,
    });
  });

  it('delivers events to traceEmitter and typed on() listeners, and survives both throwing', async () => {
    const seen: string[] = [];
    const sinkErrors: unknown[] = [];
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['add', { a: 1, b: 2 }]]), ScriptedAdapter.text('3')]),
      { add },
      {
        traceEmitter: async (event) => {
          seen.push(event.type);
          throw new Error('sink down');
        },
        onTraceError: (error) => sinkErrors.push(error),
      },
    );
    const toolResults: number[] = [];
    orchestrator.on('tool_result', (event) => {
      toolResults.push(event.data.durationMs);
      throw new Error('listener bug');
    });
    const result = await orchestrator.run([user('go')]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(result.content).toBe('3');
    expect(seen).toEqual(result.traces.map((event) => event.type));
    expect(toolResults).toHaveLength(1);
    expect(sinkErrors.length).toBe(seen.length + 1);
  });

  it('can stop collecting traces while still streaming them to the emitter', async () => {
    const events: TraceEvent[] = [];
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('x')]),
      {},
      {
        collectTraces: false,
        traceEmitter: (event) => void events.push(event),
      },
    ).run([user('go')]);
    expect(result.traces).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(['run_start', 'llm_call', 'run_end']);
  });

  it('runs concurrently on one instance without sharing state', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echo',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }, context) => {
        await new Promise((resolve) => setTimeout(resolve, text === 'first' ? 20 : 1));
        return `${text}:${context.runId}`;
      },
    });
    const adapter = {
      async call(messages: readonly ChatMessage[]) {
        const last = messages.at(-1)!;
        if (last.role === 'user') return ScriptedAdapter.toolCalls([['echo', { text: last.content }]]);
        return ScriptedAdapter.text(`final ${last.content}`);
      },
    };
    const orchestrator = new ToolOrchestrator(adapter, { echo }, deterministic);
    const [first, second] = await Promise.all([
      orchestrator.run([user('first')]),
      orchestrator.run([user('second')]),
    ]);
    expect(first.runId).not.toBe(second.runId);
    expect(first.content).toBe(`final first:${first.runId}`);
    expect(second.content).toBe(`final second:${second.runId}`);
    expect(first.traces.every((event) => event.runId === first.runId)).toBe(true);
    expect(first.messages).toHaveLength(4);
  });

  it('hands the caller context, requestId, runId, turnIndex, toolCallId, a signal and the calling run to tools', async () => {
    const contexts: unknown[] = [];
    const inspect = defineTool({
      name: 'inspect',
      description: 'Inspect',
      parameters: z.object({}),
      execute: (_input, context: Record<string, unknown>) => {
        contexts.push({
          ...context,
          signal: context['signal'] instanceof AbortSignal,
          callingRun: typeof (context['callingRun'] as { emit?: unknown } | undefined)?.emit,
        });
        return 'ok';
      },
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['inspect', {}, 't1']]),
      ScriptedAdapter.toolCalls([['inspect', {}, 't2']]),
      ScriptedAdapter.text('done'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { inspect },
      { context: { projectId: 'p-1', requestId: 'r-9' } },
    ).run([user('go')]);
    expect(contexts).toEqual([
      {
        projectId: 'p-1',
        requestId: 'r-9',
        runId: result.runId,
        turnIndex: 0,
        toolCallId: 't1',
        signal: true,
        callingRun: 'function',
      },
      {
        projectId: 'p-1',
        requestId: 'r-9',
        runId: result.runId,
        turnIndex: 1,
        toolCallId: 't2',
        signal: true,
        callingRun: 'function',
      },
    ]);
  });

  it('generates a requestId when the caller gives none', async () => {
    const ids: string[] = [];
    const inspect = defineTool({
      name: 'inspect',
      description: 'Inspect',
      parameters: z.object({}),
      execute: (_input, context) => void ids.push(context.requestId),
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['inspect', {}]]),
      ScriptedAdapter.text('done'),
    ]);
    const result = await new ToolOrchestrator(adapter, { inspect }, { generateId: () => 'generated' }).run([
      user('go'),
    ]);
    expect(ids).toEqual(['generated']);
    expect(result.traces[0]!.data).toMatchObject({ requestId: 'generated' });
  });

  it('aborts mid-turn: unfinished calls get an aborted result and the transcript stays valid', async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: 'slow',
      description: 'Slow',
      parameters: z.object({ ms: z.number() }),
      execute: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve('late'), ms)),
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['slow', { ms: 1 }, 'fast'],
        ['slow', { ms: 5_000 }, 'hang'],
        ['slow', { ms: 1 }, 'never'],
      ]),
      ScriptedAdapter.text('unreachable'),
    ]);
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    // `hang` ignores its signal: the run waits abortGraceMs for it, then settles and names it.
    const result = await new ToolOrchestrator(adapter, { slow }, { abortGraceMs: 100 }).run(
      [user('go')],
      undefined,
      { signal: controller.signal },
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result.stopReason).toBe('aborted');
    expect(result.traces.filter((event) => event.type === 'warning').map((event) => event.data)).toEqual([
      expect.objectContaining({ code: 'tools_still_running', toolCalls: [{ id: 'hang', name: 'slow' }] }),
    ]);
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(['fast', 'hang', 'never']);
    expect(toolMessages[0]!.content).toBe('late');
    expect(JSON.parse(textContent(toolMessages[1]!.content)).error).toMatch(/aborted/);
    expect(JSON.parse(textContent(toolMessages[2]!.content)).error).toMatch(/aborted/);
    expect(result.traces.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'aborted' } });
  });

  it('aborts during a model call and returns aborted with no dangling message', async () => {
    const controller = new AbortController();
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('too late')], { delayMs: 5_000 });
    setTimeout(() => controller.abort(), 20);
    const result = await new ToolOrchestrator(adapter, {}, { signal: controller.signal }).run([user('go')]);
    expect(result.stopReason).toBe('aborted');
    expect(result.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(result.content).toBe('');
  });

  it('rethrows a failing model call after emitting error and run_end', async () => {
    const events: TraceEvent[] = [];
    const adapter = { call: async () => Promise.reject(new Error('provider down')) };
    const orchestrator = new ToolOrchestrator(
      adapter,
      {},
      { traceEmitter: (event) => void events.push(event) },
    );
    await expect(orchestrator.run([user('go')])).rejects.toThrow('provider down');
    expect(events.map((event) => event.type)).toEqual(['run_start', 'error', 'run_end']);
    expect(events.at(-1)!.data).toMatchObject({ stopReason: 'error' });
  });

  it('streams deltas as trace events and assembles the same response', async () => {
    const adapter = new ScriptedAdapter(
      [
        ScriptedAdapter.toolCalls([['add', { a: 1, b: 2 }, 's1']], { reasoning_content: 'let me add' }),
        ScriptedAdapter.text('the sum is three'),
      ],
      { streamChunkSize: 5 },
    );
    const result = await new ToolOrchestrator(adapter, { add }, { stream: true }).run([user('go')]);
    const deltas = result.traces
      .filter((event) => event.type === 'content_delta')
      .map((event) => event.data.delta);
    expect(deltas.join('')).toBe('the sum is three');
    expect(deltas.length).toBeGreaterThan(1);
    expect(
      result.traces
        .filter((event) => event.type === 'reasoning_delta')
        .map((event) => event.data.delta)
        .join(''),
    ).toBe('let me add');
    expect(result.traces.find((event) => event.type === 'tool_call_delta')?.data).toEqual({
      index: 0,
      id: 's1',
      name: 'add',
      argumentsDelta: '{"a":1,"b":2}',
    });
    expect(result.content).toBe('the sum is three');
    expect(result.messages[1]).toMatchObject({ role: 'assistant', reasoning_content: 'let me add' });
  });

  it('warns when tool call arguments were cut at the token limit', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', '{"a": 1, "b"']], { finish_reason: 'length' }),
      ScriptedAdapter.text('ok'),
    ]);
    const result = await new ToolOrchestrator(adapter, { add }).run([user('go')]);
    expect(result.traces.find((event) => event.type === 'warning')?.data).toMatchObject({
      code: 'truncated_tool_call',
    });
    const toolMessage = result.messages.find((message) => message.role === 'tool');
    expect(JSON.parse(textContent(toolMessage!.content)).error).toMatch(/not valid JSON/);
  });

  it('rejects bad constructor input with errors that name the value', () => {
    const adapter = new ScriptedAdapter([]);
    expect(() => new ToolOrchestrator(adapter, { add }, { maxTurns: 0 })).toThrow(InvalidArgumentError);
    expect(() => new ToolOrchestrator(adapter, { add }, { maxTurns: 0 })).toThrow(/maxTurns \(0\)/);
    expect(() => new ToolOrchestrator(adapter, { add }, { toolConcurrency: 1.5 })).toThrow(
      /toolConcurrency \(1.5\)/,
    );
    expect(() => new ToolOrchestrator(adapter, { add }, { onCutShort: 'loop' as 'return' })).toThrow(
      /"loop"/,
    );
    expect(() => new ToolOrchestrator({} as never, { add })).toThrow(/adapter/);
    expect(() => new ToolOrchestrator(adapter, { plus: add })).toThrow(ToolDefinitionError);
    expect(() => new ToolOrchestrator({ call: adapter.call.bind(adapter) }, {}, { stream: true })).toThrow(
      /stream\(\)/,
    );
  });

  it('refuses a system prompt that is not a string, and says where run options go', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('never sent')]);
    const orchestrator = new ToolOrchestrator(adapter, { add });
    const runOptionsSecond = { runId: 'x' } as unknown as string;
    await expect(orchestrator.run([user('hi')], runOptionsSecond)).rejects.toThrow(InvalidArgumentError);
    await expect(orchestrator.run([user('hi')], runOptionsSecond)).rejects.toThrow(
      'Invalid systemPrompt ({"runId":"x"}): must be a string or undefined; run options go third: run(messages, undefined, { runId, ... }).',
    );
    expect(() => orchestrator.stream([user('hi')], 42 as unknown as string)).toThrow(
      /systemPrompt \(42\): must be a string/,
    );
    expect(adapter.calls).toHaveLength(0);
  });

  it('fails clearly when the script runs out', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.toolCalls([['add', { a: 1, b: 1 }]])]);
    await expect(new ToolOrchestrator(adapter, { add }).run([user('go')])).rejects.toThrow(
      /called 2 times but its script has only 1 responses/,
    );
  });
});
