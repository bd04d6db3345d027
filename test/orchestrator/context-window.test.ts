import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidArgumentError,
  MemoryCheckpointStore,
  ToolOrchestrator,
  defineTool,
} from '../../src/index.js';
import type {
  ChatMessage,
  ContextStrategy,
  ContextWindowOptions,
  ModelAdapter,
  ModelResponse,
  ModelToolDefinition,
  TraceEvent,
  TraceEventOf,
} from '../../src/index.js';
import { expectValidTranscript, textContent } from '../support/transcript.js';

/** A file of `lines` numbered lines of code-like text, deterministic per `seed`. */
function fileText(seed: number, lines: number): string {
  const out: string[] = [];
  for (let line = 1; line <= lines; line++) {
    const value = (seed * 7919 + line * 104729) % 100_000;
    out.push(
      `${line}\tconst value${value} = compute(${value}, "item-${seed}-${line}"); // step ${line % 17}`,
    );
  }
  return out.join('\n');
}

/**
 * The provider's token count of a request: a different rule from the loop's estimate (characters
 * over 3.2, plus the template), so the test also checks that the estimate is corrected.
 */
function providerTokens(messages: readonly ChatMessage[], tools: readonly ModelToolDefinition[]): number {
  let characters = JSON.stringify(tools).length;
  let tokens = 0;
  for (const message of messages) {
    tokens += 4;
    characters += (message.content ?? '').length;
    if (message.role === 'assistant')
      for (const toolCall of message.tool_calls ?? []) characters += toolCall.function.arguments.length + 20;
  }
  return tokens + Math.ceil(characters / 3.2);
}

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file',
  parameters: z.object({ path: z.string(), lines: z.number() }),
  execute: ({ path, lines }) => fileText(Number(path.replace(/\D/g, '')), lines),
});

/** Calls read_file `turns` times (5-20 KB results), then answers; records what each call was sent. */
function explorer(turns: number): {
  adapter: ModelAdapter;
  received: ChatMessage[][];
  sentTokens: number[];
} {
  const received: ChatMessage[][] = [];
  const sentTokens: number[] = [];
  let call = 0;
  const adapter: ModelAdapter = {
    provider: 'scripted',
    async call(messages, tools) {
      received.push([...messages]);
      const promptTokens = providerTokens(messages, tools);
      sentTokens.push(promptTokens);
      const index = call++;
      const usage = {
        promptTokens,
        completionTokens: 10,
        totalTokens: promptTokens + 10,
        reasoningTokens: 0,
        cachedPromptTokens: 0,
      };
      if (index >= turns) return { content: 'done', finish_reason: 'stop', usage };
      const lines = 60 + ((index * 37) % 200); // 5 KB to 20 KB
      return {
        content: null,
        finish_reason: 'tool_calls',
        usage,
        tool_calls: [
          {
            id: `call_${index}`,
            type: 'function',
            function: {
              name: 'read_file',
              arguments: JSON.stringify({ path: `src/file${index}.ts`, lines }),
            },
          },
        ],
      } satisfies ModelResponse;
    },
  };
  return { adapter, received, sentTokens };
}

async function explore(turns: number, contextWindow: ContextWindowOptions | undefined) {
  const run = explorer(turns);
  const events: TraceEvent[] = [];
  const orchestrator = new ToolOrchestrator(
    run.adapter,
    { read_file: readFile },
    {
      maxTurns: turns + 1,
      loopGuard: false,
      ...(contextWindow === undefined ? {} : { contextWindow }),
      traceEmitter: (event) => void events.push(event),
    },
  );
  const result = await orchestrator.run(
    [{ role: 'user', content: 'Explore the repository.' }],
    'You explore code.',
  );
  return { ...run, events, result };
}

/** Calls whose sent messages do not start with everything the previous call sent. */
function changedPrefixes(received: readonly ChatMessage[][]): number {
  let changed = 0;
  for (let index = 1; index < received.length; index++) {
    const previous = received[index - 1]!;
    const current = received[index]!;
    if (previous.some((message, position) => JSON.stringify(message) !== JSON.stringify(current[position])))
      changed++;
  }
  return changed;
}

// Three 20 KB results (about 6,000 tokens each) fit the limit of 24,576 tokens with room to spare.
const window32k: ContextWindowOptions = { maxTokens: 32_768, keepRecent: 3 };

describe('contextWindow: mask_observations on a 200-turn exploration under a 32k window', () => {
  it('keeps every call under the limit, the pairing valid, the transcript complete, and says how to get a masked result back', async () => {
    const { received, sentTokens, events, result } = await explore(200, window32k);
    const limit = 32_768 - 8192;
    expect(result.stopReason).toBe('final');
    expect(received).toHaveLength(201);
    // The first call is the only one sent before any provider count corrected the estimate.
    for (const tokens of sentTokens) expect(tokens).toBeLessThanOrEqual(limit);
    for (const messages of received) expectValidTranscript(messages);

    // The caller's transcript is complete: every tool result as the tool returned it.
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toHaveLength(200);
    for (const message of toolMessages) expect(message.content).not.toMatch(/^\[Elided/);
    expect(result.messages).toHaveLength(2 + 200 * 2 + 1);

    // What was sent: the latest 3 results (keepRecent) in full, older ones masked with a way back.
    const last = received.at(-1)!;
    const sentTools = last.filter((message) => message.role === 'tool');
    expect(sentTools).toHaveLength(200);
    // The latest result is never masked; keepRecent yields only when the limit cannot be met otherwise.
    for (const messages of received.slice(1)) expect(messages.at(-1)!.content).not.toMatch(/^\[Elided/);
    for (const messages of received.slice(1, 100)) {
      const results = messages.filter((message) => message.role === 'tool').slice(-3);
      for (const message of results) expect(message.content).not.toMatch(/^\[Elided/);
    }
    const masked = sentTools.filter((message) => textContent(message.content).startsWith('[Elided'));
    expect(masked.length).toBeGreaterThan(150);
    expect(masked[0]!.content).toMatch(
      /^\[Elided to fit the context window: read_file\(\{"path":"src\/file0\.ts","lines":60\}\) returned [\d,]+ characters\. Call it again to see them\.\]$/,
    );
    // The assistant messages are sent exactly as they are in the transcript.
    expect(last.filter((message) => message.role === 'assistant')).toEqual(
      result.messages.filter((message) => message.role === 'assistant').slice(0, -1),
    );

    // Every reduction is traced, with what it elided.
    const compactions = events.filter((event) => event.type === 'context_compacted');
    expect(compactions.length).toBeGreaterThan(0);
    for (const event of compactions) {
      expect(event.data.strategy).toBe('mask_observations');
      expect(event.data.reason).toBe('high_water');
      expect(event.data.tokensAfter).toBeLessThan(event.data.tokensBefore);
      expect(event.data.tokensAfter).toBeLessThanOrEqual(limit);
      expect(event.data.maskedToolCalls.length).toBeGreaterThan(0);
      expect(event.data.maskedToolCalls[0]!.name).toBe('read_file');
    }
    const maskedIds = compactions.flatMap((event) => event.data.maskedToolCalls.map((call) => call.id));
    expect(new Set(maskedIds).size).toBe(maskedIds.length);
    expect(maskedIds).toHaveLength(masked.length);

    // The size of each call is reported on llm_call and on the result.
    const reported = events.flatMap((event) => (event.type === 'llm_call' ? [event.data.contextTokens] : []));
    expect(reported).toHaveLength(201);
    expect(result.contextTokens).toEqual(reported);
    // Corrected by the provider's counts, the estimate lands within 10% of them.
    for (let index = 5; index < reported.length; index++) {
      expect(Math.abs(reported[index]! - sentTokens[index]!) / sentTokens[index]!).toBeLessThan(0.1);
    }
  });

  it('changes the sent prefix only at a reduction (steps), where per-turn masking changes it every turn', async () => {
    const stepwise = await explore(200, window32k);
    const perTurn = await explore(200, { ...window32k, lowWaterMark: 1 });
    const stepwiseChanges = changedPrefixes(stepwise.received);
    const perTurnChanges = changedPrefixes(perTurn.received);
    const reductions = stepwise.events.filter((event) => event.type === 'context_compacted').length;
    console.log(
      `changed prefixes over 200 calls: stepwise ${stepwiseChanges}, per turn ${perTurnChanges}; first 100 calls: ${changedPrefixes(stepwise.received.slice(0, 100))} and ${changedPrefixes(perTurn.received.slice(0, 100))}`,
    );
    expect(stepwiseChanges).toBe(reductions);
    // While the masked history is small against the low-water mark, reductions come in steps.
    expect(changedPrefixes(stepwise.received.slice(0, 100))).toBeLessThanOrEqual(30);
    expect(changedPrefixes(perTurn.received.slice(0, 100))).toBeGreaterThan(60);
    // Later the masked history itself nears the low-water mark and steps get shorter (see docs/context-window.md).
    expect(stepwiseChanges).toBeLessThan(perTurnChanges);
  });

  it('reports on each llm_call the messages that call sent, though the sent array is appended to between reductions', async () => {
    const { received, events } = await explore(120, window32k);
    const calls = events.flatMap((event) => (event.type === 'llm_call' ? [event.data.messages] : []));
    expect(calls).toHaveLength(received.length);
    // Read after the run: later calls appended to the array the earlier ones sent.
    for (const [index, messages] of calls.entries()) expect(messages).toEqual(received[index]);
    expect(events.filter((event) => event.type === 'context_compacted').length).toBeGreaterThan(1);
  });

  it('sends the whole transcript when contextWindow is off, and reports no context size', async () => {
    const { received, result, events } = await explore(20, undefined);
    expect(received.at(-1)).toEqual(result.messages.slice(0, -1));
    expect(result.contextTokens).toBeUndefined();
    expect(events.some((event) => event.type === 'context_compacted')).toBe(false);
  });

  it('a run can turn it off, or on with its own window', async () => {
    const run = explorer(30);
    const orchestrator = new ToolOrchestrator(
      run.adapter,
      { read_file: readFile },
      { maxTurns: 40, contextWindow: window32k },
    );
    const off = await orchestrator.run([{ role: 'user', content: 'go' }], undefined, {
      contextWindow: false,
    });
    expect(off.contextTokens).toBeUndefined();
    const second = explorer(30);
    const small = new ToolOrchestrator(second.adapter, { read_file: readFile }, { maxTurns: 40 });
    const on = await small.run([{ role: 'user', content: 'go' }], undefined, {
      contextWindow: { maxTokens: 16_384, keepRecent: 1 },
    });
    expect(on.contextTokens).toHaveLength(31);
    for (const tokens of second.sentTokens) expect(tokens).toBeLessThanOrEqual(16_384 - 4096);
  });
});

describe('contextWindow: a ContextStrategy of your own', () => {
  it('is called over the limit with the tokens and the limit, and what it returns is sent', async () => {
    const calls: { tokens: number; limit: number; count: number }[] = [];
    const lastTwelve: ContextStrategy = (messages, { tokens, limit }) => {
      calls.push({ tokens, limit, count: messages.length });
      let start = Math.max(2, messages.length - 12);
      while (messages[start]?.role === 'tool') start++;
      return [...messages.slice(0, 2), ...messages.slice(start)];
    };
    const { received, result, events } = await explore(60, { maxTokens: 16_384, strategy: lastTwelve });
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.limit).toBe(16_384 - 4096);
      expect(call.tokens).toBeGreaterThan(call.limit);
    }
    for (const messages of received) expectValidTranscript(messages);
    expect(received.at(-1)!.length).toBeLessThanOrEqual(2 + 13);
    expect(result.messages.filter((message) => message.role === 'tool')).toHaveLength(60);
    const compaction = events.filter((event) => event.type === 'context_compacted').at(-1);
    expect(compaction?.data.strategy).toBe('custom');
    expect(compaction?.data.removedMessageCount).toBeGreaterThan(0);
  });

  it('fails the run with a clear error, before anything is sent, when its result breaks the pairing', async () => {
    const dropResults: ContextStrategy = (messages) => messages.filter((message) => message.role !== 'tool');
    const run = explorer(60);
    const orchestrator = new ToolOrchestrator(
      run.adapter,
      { read_file: readFile },
      { maxTurns: 61, loopGuard: false, contextWindow: { maxTokens: 16_384, strategy: dropResults } },
    );
    const error = await orchestrator
      .run([{ role: 'user', content: 'go' }])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(
      /^Invalid contextWindow\.strategy\(\) \(.*\): leaves the tool call "call_0" of the assistant message at index 1 unanswered\. A strategy must keep every assistant tool call answered/,
    );
    for (const messages of run.received) expectValidTranscript(messages);
  });
});

describe('contextWindow options', () => {
  const adapter: ModelAdapter = { provider: 'local', call: async () => ({ content: 'x' }) };
  it.each([
    [
      { maxTokens: 100 },
      /Invalid contextWindow\.maxTokens \(100\): must be an integer of at least 256 tokens/,
    ],
    [
      {},
      /Invalid contextWindow\.maxTokens \(undefined\): is required: the local adapter does not know its model's context window/,
    ],
    [
      { maxTokens: 1000, reserveOutputTokens: 900 },
      /reserveOutputTokens \(900\): must be at most half of maxTokens \(1000\)/,
    ],
    [
      { maxTokens: 1000, strategy: 'truncate' },
      /strategy \("truncate"\): must be 'mask_observations', 'summarize' or a function/,
    ],
    [{ maxTokens: 1000, keepRecent: -1 }, /keepRecent \(-1\): must be a non-negative integer/],
    [{ maxTokens: 1000, lowWaterMark: 0 }, /lowWaterMark \(0\): must be a number above 0 and at most 1/],
    [{ maxTokens: 1000, countTokens: 4 }, /countTokens \(4\): must be a function/],
  ])('rejects %j with a message naming the value', (contextWindow, message) => {
    expect(
      () => new ToolOrchestrator(adapter, {}, { contextWindow: contextWindow as ContextWindowOptions }),
    ).toThrow(message);
    const orchestrator = new ToolOrchestrator(adapter, {});
    expect(() =>
      orchestrator.stream([], undefined, { contextWindow: contextWindow as ContextWindowOptions }),
    ).toThrow(new RegExp(message.source.replace('contextWindow', 'runOptions\\.contextWindow')));
  });

  it("takes maxTokens from the adapter's contextWindowTokens", async () => {
    const known: ModelAdapter = { ...adapter, contextWindowTokens: 4096 };
    const result = await new ToolOrchestrator(known, {}, { contextWindow: true }).run([
      { role: 'user', content: 'hi' },
    ]);
    expect(result.contextTokens).toHaveLength(1);
  });

  it('checks what a custom countTokens returns', async () => {
    const orchestrator = new ToolOrchestrator(
      adapter,
      {},
      { contextWindow: { maxTokens: 4096, countTokens: () => Number.NaN } },
    );
    await expect(orchestrator.run([{ role: 'user', content: 'hi' }])).rejects.toThrow(
      /Invalid contextWindow\.countTokens\(\) \(NaN\): must return a finite number of tokens/,
    );
  });
});

describe("contextWindow: 'summarize'", () => {
  it('replaces the oldest turns with one traced summary, pairing kept, its usage counted, the transcript complete', async () => {
    const run = explorer(60);
    const summaryInputs: string[] = [];
    const adapter: ModelAdapter = {
      provider: 'scripted',
      async call(messages, tools, options) {
        if (tools.length === 0 && String(messages[0]?.content).startsWith('You compress')) {
          summaryInputs.push(textContent(messages[1]!.content));
          return {
            content: `Read ${summaryInputs.length} batches of files; nothing surprising.`,
            usage: {
              promptTokens: 1000,
              completionTokens: 20,
              totalTokens: 1020,
              reasoningTokens: 0,
              cachedPromptTokens: 0,
            },
          };
        }
        return run.adapter.call(messages, tools, options);
      },
    };
    const events: TraceEvent[] = [];
    const orchestrator = new ToolOrchestrator(
      adapter,
      { read_file: readFile },
      {
        maxTurns: 61,
        loopGuard: false,
        contextWindow: { maxTokens: 32_768, strategy: 'summarize', keepRecent: 3 },
        traceEmitter: (event) => void events.push(event),
      },
    );
    const result = await orchestrator.run([{ role: 'user', content: 'Explore.' }], 'You explore code.');
    expect(result.stopReason).toBe('final');
    const compactions = events.filter((event) => event.type === 'context_compacted');
    expect(compactions.length).toBeGreaterThan(1);
    expect(summaryInputs).toHaveLength(compactions.length);
    // A later summary is written from the previous one and what came after it.
    expect(summaryInputs[1]).toMatch(/^Summary so far:\nRead 1 batches of files/);
    for (const event of compactions) {
      expect(event.data).toMatchObject({ strategy: 'summarize', reason: 'high_water' });
      expect(event.data.summary).toMatch(/^Read \d+ batches/);
      expect(event.data.usage?.promptTokens).toBe(1000);
      expect(event.data.tokensAfter).toBeLessThan(event.data.tokensBefore);
    }
    for (const tokens of run.sentTokens) expect(tokens).toBeLessThanOrEqual(32_768 - 8192);
    for (const messages of run.received) expectValidTranscript(messages);
    const last = run.received.at(-1)!;
    // The system prompt and the task, then the summary, then whole turns.
    expect(last.slice(0, 3).map((message) => message.role)).toEqual(['system', 'user', 'user']);
    expect(last[2]!.content).toMatch(
      /^\[Summary of the earlier part of this conversation[^\n]*\]\nRead \d+ batches/,
    );
    expect(last[3]!.role).toBe('assistant');
    expect(result.messages.filter((message) => message.role === 'tool')).toHaveLength(60);
    // The summary calls' usage counts towards the run's.
    const callUsage = events.reduce(
      (sum, event) => sum + (event.type === 'llm_call' ? (event.data.usage?.promptTokens ?? 0) : 0),
      0,
    );
    expect(result.usage.promptTokens).toBe(callUsage + 1000 * compactions.length);
  });

  it('masks instead, with a summarize_failed warning, when the summary call fails', async () => {
    const run = explorer(30);
    const adapter: ModelAdapter = {
      async call(messages, tools, options) {
        if (tools.length === 0) throw Object.assign(new Error('secret text'), { code: 'server_error' });
        return run.adapter.call(messages, tools, options);
      },
    };
    const events: TraceEvent[] = [];
    const orchestrator = new ToolOrchestrator(
      adapter,
      { read_file: readFile },
      {
        maxTurns: 31,
        loopGuard: false,
        contextWindow: { maxTokens: 32_768, strategy: 'summarize', keepRecent: 3 },
        traceEmitter: (event) => void events.push(event),
      },
    );
    const result = await orchestrator.run([{ role: 'user', content: 'Explore.' }]);
    expect(result.stopReason).toBe('final');
    const warning = events.find(
      (event): event is TraceEventOf<'warning'> =>
        event.type === 'warning' && event.data.code === 'summarize_failed',
    );
    expect(warning?.data.message).toBe(
      'The summary call failed (Error server_error); older tool results are masked instead.',
    );
    expect(
      events.some(
        (event) => event.type === 'context_compacted' && event.data.strategy === 'mask_observations',
      ),
    ).toBe(true);
    for (const messages of run.received) expectValidTranscript(messages);
  });

  it('estimates a summary over results masked before (after a summary call failed) from what is sent', async () => {
    const run = explorer(60);
    let summaryCalls = 0;
    const adapter: ModelAdapter = {
      provider: 'scripted',
      async call(messages, tools, options) {
        if (tools.length === 0) {
          summaryCalls++;
          if (summaryCalls === 1) throw Object.assign(new Error('overloaded'), { code: 'server_error' });
          return { content: `Read ${summaryCalls} batches of files.` };
        }
        return run.adapter.call(messages, tools, options);
      },
    };
    const events: TraceEvent[] = [];
    const orchestrator = new ToolOrchestrator(
      adapter,
      { read_file: readFile },
      {
        maxTurns: 61,
        loopGuard: false,
        contextWindow: { maxTokens: 32_768, strategy: 'summarize', keepRecent: 3 },
        traceEmitter: (event) => void events.push(event),
      },
    );
    const result = await orchestrator.run([{ role: 'user', content: 'Explore.' }], 'You explore code.');
    expect(result.stopReason).toBe('final');
    const strategies = events.flatMap((event) =>
      event.type === 'context_compacted' ? [event.data.strategy] : [],
    );
    // The first summary call fails and masks instead; the next summary stands for masked results.
    expect(strategies[0]).toBe('mask_observations');
    expect(strategies.slice(1)).toContain('summarize');
    // Each call's estimate, corrected by the provider's counts, stays within 10% of them.
    const reported = result.contextTokens!;
    expect(reported).toHaveLength(run.sentTokens.length);
    for (let index = 2; index < reported.length; index++) {
      expect(
        Math.abs(reported[index]! - run.sentTokens[index]!) / run.sentTokens[index]!,
        `call ${index}: estimated ${reported[index]}, sent ${run.sentTokens[index]}`,
      ).toBeLessThan(0.1);
    }
    // A summary is written only when the window fills up again, not on every other call.
    expect(summaryCalls).toBeLessThan(run.sentTokens.length / 4);
  });

  it("traceContent: 'metadata' leaves the summary out of the event", async () => {
    const run = explorer(40);
    const adapter: ModelAdapter = {
      async call(messages, tools, options) {
        if (tools.length === 0) return { content: 'the secret summary' };
        return run.adapter.call(messages, tools, options);
      },
    };
    const events: TraceEvent[] = [];
    const orchestrator = new ToolOrchestrator(
      adapter,
      { read_file: readFile },
      {
        maxTurns: 41,
        loopGuard: false,
        traceContent: 'metadata',
        contextWindow: { maxTokens: 32_768, strategy: 'summarize', keepRecent: 3 },
        traceEmitter: (event) => void events.push(event),
      },
    );
    await orchestrator.run([{ role: 'user', content: 'Explore.' }]);
    const compactions = events.filter((event) => event.type === 'context_compacted');
    expect(compactions.length).toBeGreaterThan(0);
    for (const event of compactions) expect(event.data.summary).toBe('');
    expect(JSON.stringify(events)).not.toContain('the secret summary');
    const calls = events.filter((event) => event.type === 'llm_call');
    for (const event of calls) expect(event.data.contextTokens).toBeGreaterThan(0);
  });
});

describe('contextWindow in a checkpointed run', () => {
  it('stores the masking state beside the full transcript, and a resumed run sends the same prefix', async () => {
    const store = new MemoryCheckpointStore();
    const run = explorer(40);
    const controller = new AbortController();
    const adapter: ModelAdapter = {
      provider: 'scripted',
      async call(messages, tools, options) {
        const response = await run.adapter.call(messages, tools, options);
        if (run.received.length === 25) controller.abort(); // the process "dies" after call 25
        return response;
      },
    };
    const options = {
      maxTurns: 41,
      loopGuard: false,
      checkpointStore: store,
      abortGraceMs: 0,
      contextWindow: { maxTokens: 16_384, keepRecent: 2 },
    } as const;
    const first = await new ToolOrchestrator(adapter, { read_file: readFile }, options).run(
      [{ role: 'user', content: 'Explore.' }],
      undefined,
      { runId: 'long', signal: controller.signal },
    );
    expect(first.stopReason).toBe('aborted');
    const saved = await store.load('long');
    const stored = saved!.strategyState['contextWindow'] as {
      maskedToolCallIds: string[];
      contextTokens: number[];
    };
    expect(stored.maskedToolCallIds.length).toBeGreaterThan(0);
    // Call 25 was cut short by the abort: 24 calls were made.
    expect(stored.contextTokens).toHaveLength(24);
    // The checkpoint's transcript is complete.
    expect(
      saved!.messages.filter(
        (message) => message.role === 'tool' && textContent(message.content).startsWith('[Elided'),
      ),
    ).toEqual([]);

    const resumed = await new ToolOrchestrator(adapter, { read_file: readFile }, options).resume('long');
    expect(resumed.stopReason).toBe('final');
    const beforeCrash = run.received[24]!;
    const afterResume = run.received[25]!;
    // The resumed run sends exactly what the cut-short call sent: the same results masked, the
    // same prefix for the provider's cache.
    expect(
      beforeCrash.some(
        (message) => message.role === 'tool' && textContent(message.content).startsWith('[Elided'),
      ),
    ).toBe(true);
    expect(afterResume).toEqual(beforeCrash);
    for (const messages of run.received) expectValidTranscript(messages);
    expect(resumed.contextTokens!.slice(0, 24)).toEqual(stored.contextTokens);
  });
});
