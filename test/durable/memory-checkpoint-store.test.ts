import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointStore, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { CheckpointStore, RunState } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { growingStates } from '../support/run-states.js';
import { describeCheckpointStoreContract } from './checkpoint-store-contract.js';

describeCheckpointStoreContract('MemoryCheckpointStore', async () => ({
  store: new MemoryCheckpointStore(),
  sibling: undefined,
  cleanup: async () => undefined,
}));

/** Passes every save on to `inner` at once, and keeps each state it got with a deep copy taken then. */
class KeepingStore implements CheckpointStore {
  readonly kept: { state: RunState; copy: RunState }[] = [];
  constructor(readonly inner: CheckpointStore) {}
  save(runId: string, state: RunState): Promise<void> {
    this.kept.push({ state, copy: structuredClone(state) });
    return this.inner.save(runId, state);
  }
  load(runId: string): Promise<RunState | undefined> {
    return this.inner.load(runId);
  }
  delete(runId: string): Promise<void> {
    return this.inner.delete(runId);
  }
}

function pageTools(log: string[]) {
  return {
    page: defineTool({
      name: 'page',
      description: 'Read a page',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => {
        log.push(`page ${n}`);
        return `page ${n}: ${'x'.repeat(64)}`;
      },
    }),
    remove: defineTool({
      name: 'remove',
      description: 'Delete a file',
      parameters: z.object({ path: z.string() }),
      needsApproval: true,
      execute: ({ path }) => `removed ${path}`,
    }),
  };
}

describe('MemoryCheckpointStore', () => {
  it('lists the runs it holds', async () => {
    const store = new MemoryCheckpointStore();
    for (const state of [...growingStates('a', 1), ...growingStates('b', 1)])
      await store.save(state.runId, state);
    expect(store.runIds()).toEqual(['a', 'b']);
    await store.delete('a');
    expect(store.runIds()).toEqual(['b']);
  });

  it('keeps the states the loop saves as they are: the run never changes one after saving it', async () => {
    const log: string[] = [];
    const turns = [1, 2, 3, 4, 5].map((n) => ScriptedAdapter.toolCalls([['page', { n }, `call_${n}`]]));
    const adapter = new ScriptedAdapter([...turns, ScriptedAdapter.text('read them all')]);
    const memory = new MemoryCheckpointStore();
    const store = new KeepingStore(memory);
    const orchestrator = new ToolOrchestrator(adapter, pageTools(log), { maxTurns: 10 });
    const result = await orchestrator.run([{ role: 'user', content: 'read' }], undefined, {
      checkpointStore: store,
    });
    expect(result.content).toBe('read them all');
    // A first checkpoint, then one after each tool-calling response and each tool result, then the end.
    expect(store.kept).toHaveLength(1 + 5 * 2 + 1);
    for (const { state, copy } of store.kept) expect(state).toEqual(copy);
    const last = store.kept.at(-1)!.copy;
    expect(await memory.load(result.runId)).toEqual(last);
    expect(last.messages).toEqual(result.messages);
    // What load returns is a copy: changing it changes nothing stored.
    const loaded = (await memory.load(result.runId))!;
    (loaded.messages as unknown[]).push({ role: 'user', content: 'later' });
    (loaded.usage as { totalTokens: number }).totalTokens = -1;
    expect(await memory.load(result.runId)).toEqual(last);
  });

  it("copies a paused run's state: it is the caller's too (result.state), who may change it", async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['remove', { path: 'a.txt' }, 'd1']]),
      ScriptedAdapter.text('done'),
    ]);
    const store = new MemoryCheckpointStore();
    const orchestrator = new ToolOrchestrator(adapter, pageTools([]), { checkpointStore: store });
    const paused = await orchestrator.run([{ role: 'user', content: 'clean up' }]);
    expect(paused.stopReason).toBe('awaiting_approval');
    const saved = structuredClone(paused.state!);
    expect(await store.load(paused.runId)).toEqual(saved);
    (paused.state!.approvalDecisions as Record<string, unknown>)['d1'] = { approved: true };
    (paused.state!.messages as unknown[]).push({ role: 'user', content: 'sneaked in' });
    expect(await store.load(paused.runId)).toEqual(saved);
    const resumed = await orchestrator.resume(paused.runId, { approvals: { d1: { approved: true } } });
    expect(resumed.content).toBe('done');
  });

  it('copies a state a wrapper store passes on later, after the loop has moved on', async () => {
    const memory = new MemoryCheckpointStore();
    const late: CheckpointStore = {
      save: async (runId, state) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        await memory.save(runId, state);
      },
      load: (runId) => memory.load(runId),
      delete: (runId) => memory.delete(runId),
    };
    const store = new KeepingStore(late);
    const turns = [1, 2].map((n) => ScriptedAdapter.toolCalls([['page', { n }, `call_${n}`]]));
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([...turns, ScriptedAdapter.text('ok')]),
      pageTools([]),
      { checkpointStore: store },
    );
    const result = await orchestrator.run([{ role: 'user', content: 'read' }]);
    expect(await memory.load(result.runId)).toEqual(store.kept.at(-1)!.copy);
  });
});
