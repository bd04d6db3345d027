import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuthenticationError, RateLimitError, defineTool } from '../../src/index.js';
import type { ModelAdapter } from '../../src/index.js';
import { defineContextProvider } from '../../src/explore/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { createTemporalActivities } from '../../src/temporal.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const deleteFile = defineTool({
  name: 'delete_file',
  description: 'Delete a file',
  parameters: z.object({ path: z.string() }),
  needsApproval: ({ path }) => path.startsWith('/etc'),
  execute: () => 'deleted',
});

const callContext = { runId: 'run-1', requestId: 'request-1', turnIndex: 0 };
const toolCall = (name: string, args: unknown, id = 'call_1') => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

/** Runs one activity in `environment`, typed as the activity is. */
const runIn = <Input, Output>(
  environment: MockActivityEnvironment,
  activity: (input: Input) => Promise<Output>,
  input: NoInfer<Input>,
): Promise<Output> => environment.run(activity as (input: unknown) => Promise<Output>, input);

/** An adapter whose call throws `error`. */
const failing = (error: unknown): ModelAdapter => ({
  call: () => Promise.reject(error instanceof Error ? error : new Error(String(error))),
});

describe('createTemporalActivities', () => {
  it('callModel returns the adapter response for plain-JSON messages and tools, and heartbeats', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('hello')]);
    const activities = createTemporalActivities({ adapters: { scripted: adapter }, tools: { add } });
    const environment = new MockActivityEnvironment();
    let heartbeats = 0;
    environment.on('heartbeat', () => heartbeats++);
    const { tools } = await runIn(environment, activities.describeAgent, {});
    const response = await runIn(environment, activities.callModel, {
      messages: [{ role: 'user', content: 'hi' }],
      tools: tools.map((tool) => ({
        type: 'function' as const,
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      })),
      toolChoice: 'auto',
    });

    expect(response).toEqual({ content: 'hello', finish_reason: 'stop' });
    expect(JSON.parse(JSON.stringify(response))).toEqual(response);
    expect(adapter.calls).toHaveLength(1);
    expect(adapter.calls[0]!.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(adapter.calls[0]!.tools.map((tool) => tool.function.name)).toEqual(['add']);
    expect(adapter.calls[0]!.options?.toolChoice).toBe('auto');
    expect(heartbeats).toBeGreaterThanOrEqual(2);
  });

  it('describeAgent describes the adapter and the tools as plain JSON, a per-call approval as per_call', async () => {
    const adapter = new ScriptedAdapter([], { provider: 'scripted-1', providerDataKey: 'scripted.chat' });
    const activities = createTemporalActivities({
      adapters: { first: adapter, second: new ScriptedAdapter([]) },
      tools: { add, delete_file: deleteFile },
    });
    const description = await runIn(new MockActivityEnvironment(), activities.describeAgent, {});

    expect(description.adapter).toMatchObject({
      name: 'first',
      provider: 'scripted-1',
      providerDataKey: 'scripted.chat',
    });
    expect(description.tools.map((tool) => [tool.name, tool.needsApproval])).toEqual([
      ['add', undefined],
      ['delete_file', 'per_call'],
    ]);
    expect(description.tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(JSON.parse(JSON.stringify(description))).toEqual(description);
    const second = await runIn(new MockActivityEnvironment(), activities.describeAgent, {
      adapter: 'second',
    });
    expect(second.adapter.name).toBe('second');
  });

  it('callTool returns the outcome the loop records, a tool failure as data', async () => {
    const activities = createTemporalActivities({
      adapters: { scripted: new ScriptedAdapter([]) },
      tools: { add },
    });
    const environment = new MockActivityEnvironment();
    const ok = await runIn(environment, activities.callTool, {
      ...callContext,
      toolCall: toolCall('add', { a: 2, b: 3 }),
    });
    expect(ok).toMatchObject({ toolCallId: 'call_1', name: 'add', result: 5, content: '5' });
    expect(ok.error).toBeUndefined();

    const bad = await runIn(environment, activities.callTool, {
      ...callContext,
      toolCall: toolCall('add', { a: 'two' }),
    });
    expect(bad).toMatchObject({ toolCallId: 'call_1', name: 'add', errorCode: 'invalid_arguments' });
    const unknown = await runIn(environment, activities.callTool, {
      ...callContext,
      toolCall: toolCall('nope', {}),
    });
    expect(unknown.errorCode).toBe('unknown_tool');
  });

  it('callTool hands the tool the run ids and the caller context', async () => {
    let seen: Record<string, unknown> | undefined;
    const whoami = defineTool({
      name: 'whoami',
      description: 'Says who called',
      parameters: z.object({}),
      execute: (_input, context) => {
        seen = { ...context };
        return 'ok';
      },
    });
    const activities = createTemporalActivities({
      adapters: { scripted: new ScriptedAdapter([]) },
      tools: { whoami },
    });
    await runIn(new MockActivityEnvironment(), activities.callTool, {
      ...callContext,
      turnIndex: 2,
      context: { tenant: 'acme' },
      toolCall: toolCall('whoami', {}, 'call_9'),
    });
    expect(seen).toMatchObject({
      tenant: 'acme',
      runId: 'run-1',
      requestId: 'request-1',
      turnIndex: 2,
      toolCallId: 'call_9',
    });
    expect(seen?.['signal']).toBeInstanceOf(AbortSignal);
  });

  it('heartbeats while a long tool call runs', async () => {
    const slow = defineTool({
      name: 'slow',
      description: 'Takes a while',
      parameters: z.object({}),
      execute: () => new Promise((resolve) => setTimeout(() => resolve('done'), 400)),
    });
    const activities = createTemporalActivities({
      adapters: { scripted: new ScriptedAdapter([]) },
      tools: { slow },
      heartbeatIntervalMs: 50,
    });
    const environment = new MockActivityEnvironment();
    let heartbeats = 0;
    environment.on('heartbeat', () => heartbeats++);
    const outcome = await runIn(environment, activities.callTool, {
      ...callContext,
      toolCall: toolCall('slow', {}),
    });
    expect(outcome.content).toBe('done');
    expect(heartbeats).toBeGreaterThanOrEqual(4);
    const settled = heartbeats;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(heartbeats).toBe(settled);
  });

  it('takes the activity cancellation as the tool call signal and fails with the cancellation', async () => {
    let aborted = false;
    const waits = defineTool({
      name: 'waits',
      description: 'Waits for its signal',
      parameters: z.object({}),
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('not cancelled within 5 s')), 5_000);
          signal.addEventListener('abort', () => {
            aborted = true;
            clearTimeout(timer);
            reject(signal.reason as Error);
          });
        }),
    });
    const activities = createTemporalActivities({
      adapters: { scripted: new ScriptedAdapter([]) },
      tools: { waits },
    });
    const environment = new MockActivityEnvironment();
    environment.once('heartbeat', () => setTimeout(() => environment.cancel(), 20));
    const running = runIn(environment, activities.callTool, {
      ...callContext,
      toolCall: toolCall('waits', {}),
    });
    await expect(running).rejects.toBeInstanceOf(CancelledFailure);
    expect(aborted).toBe(true);
  });

  it('takes the activity cancellation as the model call signal', async () => {
    let signal: AbortSignal | undefined;
    const adapter: ModelAdapter = {
      call: (_messages, _tools, options) =>
        new Promise((_resolve, reject) => {
          signal = options?.signal;
          const timer = setTimeout(() => reject(new Error('not cancelled within 5 s')), 5_000);
          signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('aborted'));
          });
        }),
    };
    const activities = createTemporalActivities({ adapters: { slow: adapter } });
    const environment = new MockActivityEnvironment();
    environment.once('heartbeat', () => setTimeout(() => environment.cancel(), 20));
    const running = runIn(environment, activities.callModel, {
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
    });
    await expect(running).rejects.toBeInstanceOf(CancelledFailure);
    expect(signal?.aborted).toBe(true);
  });

  it('maps a provider error to a retryable or non-retryable ApplicationFailure as the provider said', async () => {
    const run = (error: unknown) =>
      runIn(
        new MockActivityEnvironment(),
        createTemporalActivities({ adapters: { failing: failing(error) } }).callModel,
        { messages: [{ role: 'user', content: 'hi' }], tools: [] },
      );
    const rateLimited = await run(
      new RateLimitError({ message: 'slow down', provider: 'openai', status: 429, retryAfterMs: 1500 }),
    ).catch((error: unknown) => error);
    expect(rateLimited).toBeInstanceOf(ApplicationFailure);
    expect(rateLimited).toMatchObject({
      type: 'RateLimitError',
      nonRetryable: false,
      nextRetryDelay: 1500,
      message: 'slow down',
      details: [{ code: 'rate_limit', status: 429, provider: 'openai' }],
    });

    const denied = await run(
      new AuthenticationError({ message: 'bad key', provider: 'openai', status: 401 }),
    ).catch((error: unknown) => error);
    expect(denied).toMatchObject({ type: 'AuthenticationError', nonRetryable: true });

    const plain = new Error('socket hang up');
    await expect(run(plain)).rejects.toBe(plain);
  });

  it('fails an unknown adapter name with a non-retryable failure naming the adapters', async () => {
    const activities = createTemporalActivities({ adapters: { openai: new ScriptedAdapter([]) } });
    const failure = await runIn(new MockActivityEnvironment(), activities.callModel, {
      adapter: 'gpt',
      messages: [],
      tools: [],
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'InvalidArgumentError', nonRetryable: true });
    expect((failure as Error).message).toContain('pass one of: openai');
  });

  it('rejects adapters that are not adapters when created', () => {
    expect(() => createTemporalActivities({ adapters: {} })).toThrow(/Invalid adapters/);
    expect(() => createTemporalActivities({ adapters: { openai: {} as ModelAdapter } })).toThrow(
      /Invalid adapters\.openai/,
    );
  });

  it('toolNeedsApproval asks the tool whose needsApproval is a function', async () => {
    const activities = createTemporalActivities({
      adapters: { scripted: new ScriptedAdapter([]) },
      tools: { add, delete_file: deleteFile },
    });
    const environment = new MockActivityEnvironment();
    const ask = (toolName: string, input: unknown) =>
      runIn(environment, activities.toolNeedsApproval, {
        ...callContext,
        toolName,
        toolCallId: 'call_1',
        input,
      });
    expect(await ask('delete_file', { path: '/etc/passwd' })).toBe(true);
    expect(await ask('delete_file', { path: '/tmp/x' })).toBe(false);
    expect(await ask('add', { a: 1, b: 2 })).toBe(false);
  });

  it('runs the context-request loop steps with the worker providers', async () => {
    const readme = defineContextProvider({
      name: 'readme',
      description: 'Reads the README',
      parameters: z.object({}),
      fulfill: async () => '# Project',
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['ExplorationResponse', { requests: [{ provider: 'readme', params: {}, reason: 'overview' }] }],
      ]),
    ]);
    const activities = createTemporalActivities({
      adapters: { scripted: adapter },
      contextProviders: { readme },
    });
    const environment = new MockActivityEnvironment();
    const exploration = await runIn(environment, activities.callExplorationLlm, {
      task: 'Explain the project',
      context: '',
      round: 1,
      maxRounds: 3,
    });
    expect(exploration.response.requests).toEqual([{ provider: 'readme', params: {}, reason: 'overview' }]);
    expect(JSON.stringify(adapter.calls[0]!.messages)).toContain('- readme: Reads the README');

    const fulfilled = await runIn(environment, activities.fulfillContextRequests, {
      requests: exploration.response.requests,
    });
    expect(fulfilled.results).toEqual([
      { provider: 'readme', params: {}, ok: true, content: '# Project', truncated: false },
    ]);

    const withoutProviders = createTemporalActivities({ adapters: { scripted: adapter } });
    await expect(
      runIn(environment, withoutProviders.fulfillContextRequests, { requests: [] }),
    ).rejects.toMatchObject({ type: 'InvalidArgumentError', nonRetryable: true });
  });
});
