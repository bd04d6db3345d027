import { describe, expect, it } from 'vitest';
import { MemoryCheckpointStore } from '../../src/index.js';
import { growingStates } from '../support/run-states.js';
import { describeCheckpointStoreContract } from './checkpoint-store-contract.js';

describeCheckpointStoreContract('MemoryCheckpointStore', async () => ({
  store: new MemoryCheckpointStore(),
  sibling: undefined,
  cleanup: async () => undefined,
}));

describe('MemoryCheckpointStore', () => {
  it('lists the runs it holds', async () => {
    const store = new MemoryCheckpointStore();
    for (const state of [...growingStates('a', 1), ...growingStates('b', 1)])
      await store.save(state.runId, state);
    expect(store.runIds()).toEqual(['a', 'b']);
    await store.delete('a');
    expect(store.runIds()).toEqual(['b']);
  });
});
