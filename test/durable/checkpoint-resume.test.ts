import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidArgumentError,
  MemoryCheckpointStore,
  ResumeMismatchError,
  ToolOrchestrator,
  defineTool,
} from '../../src/index.js';
import type { CheckpointStore, RunState } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

/** A memory store that also keeps every state it was asked to save. */
class RecordingStore extends MemoryCheckpointStore implements CheckpointStore {
  readonly saved: RunState[] = [];
  override async save(runId: string, state: RunState): Promise<void> {
    this.saved.push(structuredClone(state));
    await super.save(runId, state);
  }
}

/** Tools that log each execution (name, toolCallId, runId); `slow` waits until told to finish. */
function makeTools(log: string[], release?: Promise<void>) {
  return {
    add: defineTool({
      name: 'add',
      description: 'Add',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }, context) => {
        log.push(`add ${context.toolCallId} ${context.runId}`);
        return a + b;
      },
    }),
    slow: defineTool({
      name: 'slow',
      description: 'Slow',
      parameters: z.object({}),
      execute: async (_input, context) => {
        log.push(`slow ${context.toolCallId} ${context.runId}`);
        await (release ?? Promise.resolve());
        return 'slow done';
      },
    }),
  };
}

const script = () => [
  ScriptedAdapter.toolCalls([
    ['add', { a: 1, b: 2 }, 'c1'],
    ['slow', {}, 'c2'],
  ]),
  ScriptedAdapter.text('three and slow'),
];

describe('checkpoints', () => {
  it('are saved at the start, after each model response and each tool result, and at the end', async () => {
    const store = new RecordingStore();
    const log: string[] = [];
    const orchestrator = new ToolOrchestrator(new ScriptedAdapter(script()), makeTools(log), {
      checkpointStore: store,
    });
    const result = await orchestrator.run([{ role: 'user', content: 'go' }], undefined, { runId: 'run-1' });
    expect(result.content).toBe('three and slow');
    const summary = store.saved.map((state) => ({
      step: state.step,
      messages: state.messages.length,
      calls: state.currentTurn?.toolCalls.map((call) => call.status) ?? null,
      stopReason: state.stopReason,
    }));
    expect(summary).toEqual([
      { step: 1, messages: 1, calls: null, stopReason: null },
      { step: 2, messages: 2, calls: ['pending', 'pending'], stopReason: null },
      { step: 3, messages: 2, calls: ['done', 'pending'], stopReason: null },
      { step: 4, messages: 2, calls: ['done', 'done'], stopReason: null },
      { step: 5, messages: 5, calls: null, stopReason: 'final' },
    ]);
    expect(store.saved[2]!.currentTurn!.toolCalls[0]!.outcome).toMatchObject({ content: '3' });
    expect(store.saved.at(-1)!.result).toEqual({ content: 'three and slow' });
    expect(log).toEqual(['add c1 run-1', 'slow c2 run-1']);
  });

  it('mark calls in flight as started (parallel calls)', async () => {
    const store = new RecordingStore();
    let finish!: () => void;
    const release = new Promise<void>((resolve) => (finish = resolve));
    const log: string[] = [];
    const orchestrator = new ToolOrchestrator(new ScriptedAdapter(script()), makeTools(log, release), {
      checkpointStore: store,
      toolConcurrency: 2,
    });
    const running = orchestrator.run([{ role: 'user', content: 'go' }]);
    await expect.poll(() => store.saved.length).toBe(3);
    expect(store.saved[2]!.currentTurn!.toolCalls.map((call) => call.status)).toEqual(['done', 'started']);
    finish();
    await running;
  });
});

describe('resume', () => {
  it('never runs a recorded call again; a started call runs again with the same toolCallId', async () => {
    const store = new MemoryCheckpointStore();
    const log: string[] = [];
    const controller = new AbortController();
    const first = new ToolOrchestrator(new ScriptedAdapter(script()), makeTools(log, new Promise(() => {})), {
      checkpointStore: store,
      abortGraceMs: 0,
    });
    const running = first.run([{ role: 'user', content: 'go' }], 'Be brief.', {
      runId: 'run-2',
      signal: controller.signal,
    });
    await expect.poll(() => log.length).toBe(2);
    controller.abort(); // The process "dies" while slow runs: its result is never recorded.
    expect((await running).stopReason).toBe('aborted');

    // A new orchestrator (as in a new process) with a model that answers only the rest.
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('three and slow')]);
    const second = new ToolOrchestrator(adapter, makeTools(log), { checkpointStore: store });
    const result = await second.resume('run-2');
    expect(result.content).toBe('three and slow');
    expect(result.stopReason).toBe('final');
    expect(result.runId).toBe('run-2');
    expect(log).toEqual(['add c1 run-2', 'slow c2 run-2', 'slow c2 run-2']);
    expectValidTranscript(result.messages);
    expect(result.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(adapter.calls).toHaveLength(1);
    expect(adapter.calls[0]!.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: '3' },
      { role: 'tool', tool_call_id: 'c2', content: 'slow done' },
    ]);
    expect(result.turns).toBe(2);
    expect(result.traces[0]).toMatchObject({ type: 'run_start', runId: 'run-2' });
  });

  it('of a run that ended returns its recorded result and calls nothing', async () => {
    const store = new MemoryCheckpointStore();
    const log: string[] = [];
    const orchestrator = new ToolOrchestrator(new ScriptedAdapter(script()), makeTools(log), {
      checkpointStore: store,
    });
    const ran = await orchestrator.run([{ role: 'user', content: 'go' }], undefined, { runId: 'done-run' });
    const adapter = new ScriptedAdapter([]);
    const again = await new ToolOrchestrator(adapter, makeTools(log), { checkpointStore: store }).resume(
      'done-run',
    );
    expect(again).toMatchObject({
      content: ran.content,
      stopReason: 'final',
      turns: 2,
      usage: ran.usage,
      runId: 'done-run',
      traces: [],
    });
    expect(again.messages).toEqual(ran.messages);
    expect(adapter.calls).toHaveLength(0);
    expect(log).toHaveLength(2);
  });

  it('refuses another tool set or model with ResumeMismatchError, unless forced', async () => {
    const store = new MemoryCheckpointStore();
    const controller = new AbortController();
    const log: string[] = [];
    const tools = makeTools(log, new Promise(() => {}));
    const running = new ToolOrchestrator(new ScriptedAdapter(script()), tools, {
      checkpointStore: store,
      abortGraceMs: 0,
    }).run([{ role: 'user', content: 'go' }], undefined, { runId: 'r', signal: controller.signal });
    await expect.poll(() => log.length).toBe(2);
    controller.abort();
    await running;
    const changed = {
      ...makeTools(log),
      add: defineTool({
        name: 'add',
        description: 'Add',
        parameters: z.object({ a: z.number(), c: z.number() }),
        execute: () => 0,
      }),
    };
    const mismatched = new ToolOrchestrator(new ScriptedAdapter([ScriptedAdapter.text('x')]), changed, {
      checkpointStore: store,
    });
    const error = await mismatched.resume('r').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ResumeMismatchError);
    expect((error as ResumeMismatchError).changes).toEqual([
      { type: 'tool_schema_changed', toolName: 'add' },
    ]);
    expect((error as Error).message).toContain('the schema of tool "add" changed');
    const other = Object.assign(new ScriptedAdapter([ScriptedAdapter.text('x')]), { model: 'gpt-x' });
    await expect(
      new ToolOrchestrator(other, makeTools(log), { checkpointStore: store }).resume('r'),
    ).rejects.toThrow('the model changed from none named to "gpt-x"');
    expect((await mismatched.resume('r', { force: true })).content).toBe('x');
  });

  it('says what is wrong with a run id it cannot load, and refuses a run id already used', async () => {
    const log: string[] = [];
    const store = new MemoryCheckpointStore();
    const orchestrator = new ToolOrchestrator(new ScriptedAdapter(script()), makeTools(log));
    await expect(orchestrator.resume('nope')).rejects.toThrow(InvalidArgumentError);
    await expect(orchestrator.resume('nope', { checkpointStore: store })).rejects.toThrow(
      'names no run the checkpointStore has a checkpoint of',
    );
    await orchestrator.run([{ role: 'user', content: 'go' }], undefined, {
      runId: 'used',
      checkpointStore: store,
    });
    await expect(
      orchestrator.run([{ role: 'user', content: 'go' }], undefined, {
        runId: 'used',
        checkpointStore: store,
      }),
    ).rejects.toThrow('already has a checkpoint');
    expect(log).toHaveLength(2);
  });

  it('a failing store fails the run with its error; the last checkpoint stays resumable', async () => {
    const store = new RecordingStore();
    let saves = 0;
    const failing: CheckpointStore = {
      save: async (runId, state) => {
        if (++saves === 3) throw new Error('disk full');
        await store.save(runId, state);
      },
      load: (runId) => store.load(runId),
      delete: (runId) => store.delete(runId),
    };
    const log: string[] = [];
    const orchestrator = new ToolOrchestrator(new ScriptedAdapter(script()), makeTools(log), {
      checkpointStore: failing,
    });
    await expect(
      orchestrator.run([{ role: 'user', content: 'go' }], undefined, { runId: 'f' }),
    ).rejects.toThrow('disk full');
    expect((await store.load('f'))!.step).toBe(2);
    const resumed = await new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('three and slow')]),
      makeTools(log),
      { checkpointStore: store },
    ).resume('f');
    expect(resumed.content).toBe('three and slow');
    expectValidTranscript(resumed.messages);
  });
});
