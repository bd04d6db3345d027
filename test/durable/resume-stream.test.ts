import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidArgumentError,
  MemoryCheckpointStore,
  ResumeMismatchError,
  ToolOrchestrator,
  defineTool,
} from '../../src/index.js';
import type { TraceEventOf } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

function makeTools(log: string[]) {
  return {
    read: defineTool({
      name: 'read',
      description: 'Read a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }, context) => {
        log.push(`read ${path} ${context.toolCallId}`);
        return `contents of ${path}`;
      },
    }),
    remove: defineTool({
      name: 'remove',
      description: 'Delete a file',
      parameters: z.object({ path: z.string() }),
      needsApproval: true,
      execute: ({ path }, context) => {
        log.push(`remove ${path} ${context.toolCallId}`);
        return `removed ${path}`;
      },
    }),
  };
}

const script = () => [
  ScriptedAdapter.toolCalls([
    ['read', { path: 'a.txt' }, 'r1'],
    ['remove', { path: 'a.txt' }, 'd1'],
  ]),
  ScriptedAdapter.text('Read a.txt and removed it.'),
];

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('orchestrator.resumeStream()', () => {
  it('streams the rest of a paused run: the approved call, the deltas and the final text', async () => {
    const log: string[] = [];
    const store = new MemoryCheckpointStore();
    const adapter = new ScriptedAdapter(script(), { streamChunkSize: 5 });
    const orchestrator = new ToolOrchestrator(adapter, makeTools(log), { checkpointStore: store });
    const paused = await orchestrator.stream([{ role: 'user', content: 'clean up' }]).result;
    expect(paused.stopReason).toBe('awaiting_approval');
    expect(log).toEqual(['read a.txt r1']);

    const stream = orchestrator.resumeStream(paused.runId, { approvals: { d1: { approved: true } } });
    const [events, text] = await Promise.all([collect(stream), collect(stream.textStream)]);
    const result = await stream.result;
    expect(result.content).toBe('Read a.txt and removed it.');
    expect(result.stopReason).toBe('final');
    // Only the approved call ran now; the recorded one did not run again.
    expect(log).toEqual(['read a.txt r1', 'remove a.txt d1']);
    // Text arrived in deltas (the adapter streamed), and adds up to the answer.
    expect(text.length).toBeGreaterThan(1);
    expect(text.join('')).toBe('Read a.txt and removed it.');
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('run_start');
    expect(types.at(-1)).toBe('run_end');
    expect(types).toContain('content_delta');
    // r1's result was traced by the run that paused, when it ran; the resumed run traces d1's.
    const answered = events.filter(
      (event): event is TraceEventOf<'tool_result'> => event.type === 'tool_result',
    );
    expect(answered.map((event) => event.data.toolCallId)).toEqual(['d1']);
    expect(
      paused.traces.filter((event) => event.type === 'tool_result').map((event) => event.data.toolCallId),
    ).toEqual(['r1']);
    expect(events.every((event) => event.runId === paused.runId)).toBe(true);
    expect(result.traces).toEqual(events);
    expectValidTranscript(result.messages);
    // The checkpoint now records the ended run.
    expect((await store.load(paused.runId))?.result).toEqual({ content: 'Read a.txt and removed it.' });
  });

  it('takes a state as resume does, pauses again while calls stay undecided, and can be aborted', async () => {
    const log: string[] = [];
    const adapter = new ScriptedAdapter(script());
    const orchestrator = new ToolOrchestrator(adapter, makeTools(log));
    const paused = await orchestrator.run([{ role: 'user', content: 'clean up' }]);
    const again = orchestrator.resumeStream(paused.state!);
    const events = await collect(again);
    expect((await again.result).stopReason).toBe('awaiting_approval');
    expect((await again.result).pendingApprovals).toEqual(paused.pendingApprovals);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'awaiting_approval' } });
    expect(log).toEqual(['read a.txt r1']);

    const aborted = orchestrator.resumeStream((await again.result).state!, {
      approvals: { d1: { approved: true } },
    });
    aborted.abort();
    expect((await aborted.result).stopReason).toBe('aborted');
  });

  it('runs nothing for a run that had ended: no events, its recorded result', async () => {
    const store = new MemoryCheckpointStore();
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('all done')]),
      makeTools([]),
      { checkpointStore: store },
    );
    const first = await orchestrator.run([{ role: 'user', content: 'hi' }]);
    const stream = orchestrator.resumeStream(first.runId);
    expect(await collect(stream)).toEqual([]);
    expect(await collect(stream.textStream)).toEqual([]);
    const result = await stream.result;
    expect(result).toMatchObject({ content: 'all done', stopReason: 'final', runId: first.runId });
    expect(result.messages).toEqual(first.messages);
  });

  it('throws bad options at once; a run it cannot resume rejects the result and the iterators', async () => {
    const store = new MemoryCheckpointStore();
    const orchestrator = new ToolOrchestrator(new ScriptedAdapter(script()), makeTools([]), {
      checkpointStore: store,
    });
    expect(() => orchestrator.resumeStream('x', { force: 'yes' as unknown as boolean })).toThrow(
      InvalidArgumentError,
    );
    const unknown = orchestrator.resumeStream('never-saved');
    await expect(unknown.result).rejects.toThrow(InvalidArgumentError);
    await expect(collect(unknown.textStream)).rejects.toThrow(/never-saved/);
    // The event iterator ends (with no events): the error is the result's.
    expect(await collect(unknown)).toEqual([]);

    const paused = await orchestrator.run([{ role: 'user', content: 'clean up' }]);
    const other = new ToolOrchestrator(
      new ScriptedAdapter(script()),
      { read: makeTools([]).read },
      {
        checkpointStore: store,
      },
    );
    const mismatch = other.resumeStream(paused.runId);
    await expect(mismatch.result).rejects.toThrow(ResumeMismatchError);
    await expect(collect(mismatch.textStream)).rejects.toThrow(ResumeMismatchError);
  });
});
