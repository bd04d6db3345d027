import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidArgumentError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, ModelAdapter, ModelStreamEvent, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectPairedToolEvents, expectValidTranscript } from '../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo:${text}`,
});

/**
 * Answers the first call of a run with an `echo` tool call, then streams `words` one delta at a
 * time with a real wait between deltas, so two concurrent runs interleave their deltas.
 */
function wordStreamer(gapMs: number): ModelAdapter {
  const respond = (messages: readonly ChatMessage[]): { words: string[]; toolTurn: boolean } => {
    const first = messages.find((message) => message.role === 'user')!.content as string;
    const toolTurn = messages.at(-1)!.role === 'user';
    return { words: toolTurn ? [] : first.split(' ').map((word) => `${word} `), toolTurn };
  };
  return {
    provider: 'words',
    async call(messages) {
      const { words, toolTurn } = respond(messages);
      return toolTurn
        ? ScriptedAdapter.toolCalls([['echo', { text: 'x' }, 'e1']])
        : ScriptedAdapter.text(words.join(''));
    },
    async *stream(messages): AsyncIterable<ModelStreamEvent> {
      const { words, toolTurn } = respond(messages);
      if (toolTurn) {
        yield { type: 'response', response: ScriptedAdapter.toolCalls([['echo', { text: 'x' }, 'e1']]) };
        return;
      }
      for (const word of words) {
        await sleep(gapMs);
        yield { type: 'content_delta', delta: word };
      }
      yield { type: 'response', response: ScriptedAdapter.text(words.join('')) };
    },
  };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

interface ReaderLatch {
  /** Settles once the reader has seen `key`; rejects after 2 s (the run then fails). */
  sees(key: string): Promise<void>;
  /** Reads the stream to its end, marking each event seen. */
  read(stream: AsyncIterable<TraceEvent>): Promise<void>;
}

/** Lets a run wait until a stream's reader has seen one of its events. */
function readerLatch(): ReaderLatch {
  const seen = new Set<string>();
  const waiters: { readonly key: string; readonly resolve: () => void }[] = [];
  const keyOf = (event: TraceEvent): string => {
    if (event.type === 'tool_call') return `tool_call ${event.data.toolCall.id}`;
    if (event.type === 'tool_result') return `tool_result ${event.data.toolCallId}`;
    if (event.type === 'content_delta') return `delta ${event.data.delta}`;
    return event.type;
  };
  return {
    sees: (key) =>
      seen.has(key)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiters.push({ key, resolve })),
            sleep(2_000).then(() =>
              Promise.reject(new Error(`the reader had not seen ${key} while the run waited on it`)),
            ),
          ]),
    async read(stream) {
      for await (const event of stream) {
        const key = keyOf(event);
        seen.add(key);
        for (const waiter of waiters.filter((entry) => entry.key === key)) waiter.resolve();
      }
    },
  };
}

describe('orchestrator.stream()', () => {
  it('keeps two concurrent runs on one instance apart, though their deltas interleave in time', async () => {
    const orchestrator = new ToolOrchestrator(wordStreamer(2), { echo });
    const seenByInstance: TraceEvent[] = [];
    orchestrator.on('content_delta', (event) => seenByInstance.push(event));
    const first = orchestrator.stream([user('alpha beta gamma delta epsilon')]);
    const second = orchestrator.stream([user('one two three four five')]);
    const [firstEvents, secondEvents, firstText, secondText] = await Promise.all([
      collect(first),
      collect(second),
      collect(first.textStream),
      collect(second.textStream),
    ]);
    const [firstResult, secondResult] = await Promise.all([first.result, second.result]);

    // The instance-wide listener saw the two runs' deltas interleaved...
    const runOrder = seenByInstance.map((event) => event.runId);
    expect(new Set(runOrder).size).toBe(2);
    const switches = runOrder.filter((runId, index) => index > 0 && runId !== runOrder[index - 1]).length;
    expect(switches).toBeGreaterThan(1);
    // ...each stream got its own run's events only, all of them, in seq order, deltas included.
    expect(firstEvents.every((event) => event.runId === firstResult.runId)).toBe(true);
    expect(secondEvents.every((event) => event.runId === secondResult.runId)).toBe(true);
    expect(firstEvents).toEqual(firstResult.traces);
    expect(secondEvents).toEqual(secondResult.traces);
    expectPairedToolEvents(firstEvents);
    expect(
      firstEvents.flatMap((event) => (event.type === 'content_delta' ? [event.data.delta] : [])).join(''),
    ).toBe('alpha beta gamma delta epsilon ');
    expect(firstText.join('')).toBe('alpha beta gamma delta epsilon ');
    expect(secondText.join('')).toBe('one two three four five ');
    expect(firstResult.content).toBe('alpha beta gamma delta epsilon ');
    expect(firstEvents.map((event) => event.type)).toEqual([
      'run_start',
      'llm_call',
      'tool_call',
      'tool_result',
      ...Array.from({ length: 5 }, () => 'content_delta'),
      'llm_call',
      'run_end',
    ]);
  });

  it('loses nothing to a slow consumer', async () => {
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter(
        [
          ScriptedAdapter.toolCalls([['echo', { text: 'a' }, 'c1']]),
          ScriptedAdapter.text('the slow consumer'),
        ],
        { streamChunkSize: 2 },
      ),
      { echo },
    );
    const stream = orchestrator.stream([user('go')]);
    const seen: TraceEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      await sleep(3);
    }
    const result = await stream.result;
    expect(seen.map((event) => event.seq)).toEqual(result.traces.map((_event, index) => index));
    expect(seen).toEqual(result.traces);
    expect(seen.filter((event) => event.type === 'content_delta')).toHaveLength(9);
  });

  it('does not stall a run whose stream nobody iterates', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['echo', { text: 'a' }]]),
      ScriptedAdapter.text('done without a reader'),
    ]);
    const stream = new ToolOrchestrator(adapter, { echo }).stream([user('go')]);
    const result = await stream.result;
    expect(result.content).toBe('done without a reader');
    expect(adapter.calls).toHaveLength(2);
    // Iterating afterwards still replays the whole run.
    expect(await collect(stream)).toEqual(result.traces);
  });

  it('does not abort the run when a consumer leaves the loop early, and abort() does', async () => {
    let executed = 0;
    const count = defineTool({
      name: 'count',
      description: 'Count',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => {
        executed++;
        return n;
      },
    });
    const script = [
      ScriptedAdapter.toolCalls([['count', { n: 1 }]]),
      ScriptedAdapter.toolCalls([['count', { n: 2 }]]),
      ScriptedAdapter.text('counted'),
    ];
    const stream = new ToolOrchestrator(new ScriptedAdapter(script, { delayMs: 5 }), { count }).stream([
      user('go'),
    ]);
    for await (const event of stream) {
      if (event.type === 'run_start') break;
    }
    const result = await stream.result;
    expect(result.stopReason).toBe('final');
    expect(executed).toBe(2);

    const aborted = new ToolOrchestrator(new ScriptedAdapter(script, { delayMs: 5_000 }), { count }).stream([
      user('go'),
    ]);
    for await (const event of aborted) {
      if (event.type === 'run_start') aborted.abort(new Error('enough'));
    }
    const abortedResult = await aborted.result;
    expect(abortedResult.stopReason).toBe('aborted');
    expect(abortedResult.traces.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'aborted' } });
  });

  it('streams through adapter.stream whatever the stream option says; textStream is each response without one', async () => {
    const script = () => [
      ScriptedAdapter.toolCalls([['echo', { text: 'a' }]], { content: 'Let me check. ' }),
      ScriptedAdapter.text('It is a.'),
    ];
    const streaming = new ToolOrchestrator(
      new ScriptedAdapter(script(), { streamChunkSize: 4 }),
      { echo },
      {
        stream: false,
      },
    ).stream([user('go')]);
    const events = await collect(streaming);
    expect(events.filter((event) => event.type === 'content_delta').length).toBeGreaterThan(2);
    expect((await collect(streaming.textStream)).join('')).toBe('Let me check. It is a.');

    const scripted = new ScriptedAdapter(script());
    const plain: ModelAdapter = { provider: 'plain', call: scripted.call.bind(scripted) };
    const notStreaming = new ToolOrchestrator(plain, { echo }).stream([user('go')]);
    expect(await collect(notStreaming.textStream)).toEqual(['Let me check. ', 'It is a.']);
    const plainEvents = await collect(notStreaming);
    expect(plainEvents.some((event) => event.type === 'content_delta')).toBe(false);
    expect((await notStreaming.result).content).toBe('It is a.');
  });

  it('ends the iteration after the error event of a failed run; result and textStream reject', async () => {
    const failing: ModelAdapter = { call: () => Promise.reject(new Error('provider down')) };
    const stream = new ToolOrchestrator(failing, {}).stream([user('go')]);
    const events = await collect(stream);
    expect(events.map((event) => event.type)).toEqual(['run_start', 'error', 'run_end']);
    await expect(stream.result).rejects.toThrow('provider down');
    await expect(collect(stream.textStream)).rejects.toThrow('provider down');
  });

  it('leaves no unhandled rejection when a failed run is never awaited', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failing: ModelAdapter = { call: () => Promise.reject(new Error('nobody listens')) };
      new ToolOrchestrator(failing, {}).stream([user('go')]);
      await sleep(20);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('with collectTraces: false, keeps events for the reader and releases what it has read', async () => {
    const turns = 300;
    const script = [
      ...Array.from({ length: turns }, (_value, index) =>
        ScriptedAdapter.toolCalls([['echo', { text: String(index) }, `c${index}`]]),
      ),
      ScriptedAdapter.text('done'),
    ];
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter(script),
      { echo },
      {
        collectTraces: false,
        maxTurns: turns + 1,
      },
    );
    const stream = orchestrator.stream([user('go')]);
    const seen: TraceEvent[] = [];
    for await (const event of stream) seen.push(event);
    const result = await stream.result;
    expect(result.traces).toEqual([]);
    expectPairedToolEvents(seen);
    // Per turn: tool_call_delta, llm_call, tool_call, tool_result; then the answer's delta and call.
    expect(seen).toHaveLength(1 + turns * 4 + 3);
    expect([seen[0]!.type, seen.at(-1)!.type]).toEqual(['run_start', 'run_end']);
    expectValidTranscript(result.messages);
    // A second reader starts at the oldest event still held: the ones read were let go.
    const again = await collect(stream);
    expect(again.length).toBeLessThan(seen.length);
    expect(again.at(-1)).toEqual(seen.at(-1));
  });

  it('hands readers the events so far whenever the run waits: on the model, a tool, a stream chunk, a hook', async () => {
    // Each wait below holds until the reader has seen an event emitted just before it: a reader
    // woken only at the end of the run would leave it waiting, and the wait's bound fails the run.
    const slowEchoOf = (reader: ReaderLatch) =>
      defineTool({
        name: 'echo',
        description: 'Echo',
        parameters: z.object({ text: z.string() }),
        execute: async ({ text }, { toolCallId }) => {
          await reader.sees(`tool_call ${toolCallId}`);
          return text;
        },
      });
    const reader = readerLatch();
    let calls = 0;
    const adapter: ModelAdapter = {
      async call() {
        calls++;
        if (calls === 1) {
          await reader.sees('run_start');
          return ScriptedAdapter.toolCalls([['echo', { text: 'a' }, 'c1']]);
        }
        await reader.sees('tool_result c1');
        return ScriptedAdapter.text('done');
      },
    };
    const stream = new ToolOrchestrator(adapter, { echo: slowEchoOf(reader) }).stream([user('go')]);
    await reader.read(stream);
    const result = await stream.result;
    expect(result.content).toBe('done');
    // The tool's wait ended because the reader saw its call, not at its bound (a tool error).
    expect(result.messages.find((message) => message.role === 'tool')?.content).toBe('a');

    // A hook: `prepareTurn` of the second turn waits for the reader to see the first turn's result.
    const hookReader = readerLatch();
    const hooked = new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['echo', { text: 'a' }, 'c1']]),
        ScriptedAdapter.text('hooked'),
      ]),
      { echo },
      {
        prepareTurn: async ({ turn }) => {
          if (turn === 1) await hookReader.sees('tool_result c1');
        },
      },
    ).stream([user('go')]);
    await hookReader.read(hooked);
    expect((await hooked.result).content).toBe('hooked');

    // A streaming adapter: each delta reaches the reader before the next chunk is awaited.
    const deltaReader = readerLatch();
    const streaming: ModelAdapter = {
      call: () => Promise.reject(new Error('stream() reads adapter.stream')),
      async *stream(): AsyncIterable<ModelStreamEvent> {
        for (const word of ['one ', 'two ', 'three']) {
          yield { type: 'content_delta', delta: word };
          await deltaReader.sees(`delta ${word}`);
        }
        yield { type: 'response', response: ScriptedAdapter.text('one two three') };
      },
    };
    const streamed = new ToolOrchestrator(streaming, {}).stream([user('go')]);
    await deltaReader.read(streamed);
    expect((await streamed.result).content).toBe('one two three');
  });

  it('refuses bad arguments at once, before any run starts', () => {
    const adapter = new ScriptedAdapter([]);
    const orchestrator = new ToolOrchestrator(adapter, { echo });
    expect(() => orchestrator.stream('hello' as never)).toThrow(InvalidArgumentError);
    expect(() => orchestrator.stream([user('go')], undefined, { maxTurns: 0 })).toThrow(
      /runOptions.maxTurns \(0\)/,
    );
    expect(adapter.calls).toHaveLength(0);
  });
});

describe('RunOptions.onEvent', () => {
  it("receives this run's events only, and a throwing listener breaks nothing", async () => {
    const adapter: ModelAdapter = {
      async call(messages) {
        const last = messages.at(-1)!;
        await sleep(last.role === 'user' && last.content === 'slow' ? 10 : 1);
        return last.role === 'user'
          ? ScriptedAdapter.toolCalls([['echo', { text: last.content as string }]])
          : ScriptedAdapter.text(`done ${last.content}`);
      },
    };
    const errors: unknown[] = [];
    const orchestrator = new ToolOrchestrator(
      adapter,
      { echo },
      { onTraceError: (error) => errors.push(error) },
    );
    const slowEvents: TraceEvent[] = [];
    const fastEvents: TraceEvent[] = [];
    const [slow, fast] = await Promise.all([
      orchestrator.run([user('slow')], undefined, {
        onEvent: (event) => {
          slowEvents.push(event);
          throw new Error('listener bug');
        },
      }),
      orchestrator.run([user('fast')], undefined, { onEvent: (event) => void fastEvents.push(event) }),
    ]);
    expect(slow.content).toBe('done echo:slow');
    expect(slowEvents).toEqual(slow.traces);
    expect(fastEvents).toEqual(fast.traces);
    expect(errors).toHaveLength(slow.traces.length);
  });
});
