import type { CheckpointStore } from './checkpoint-store.js';
import { checkRunId, checkSaveArguments } from './check-save-arguments.js';
import type { RunState } from './run-state.js';
import { validateRunState } from './validate-run-state.js';

interface SavedRun {
  readonly step: number;
  /** A copy of the state saved. */
  readonly state: RunState;
}

/**
 * Keeps checkpoints in this process's memory: for tests, and for human approval within one
 * process. Nothing survives a restart; use `FileCheckpointStore` or `PostgresCheckpointStore` for that.
 *
 * A save copies the state (its fields as JSON, its message list), so changing it afterwards does
 * not change the checkpoint. Messages are kept by reference: treat them as immutable. `load`
 * returns a copy.
 *
 * @example
 * const store = new MemoryCheckpointStore();
 * await store.save(state.runId, state);
 * const saved = await store.load(state.runId);
 */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly #runs = new Map<string, SavedRun>();

  /** Stores `state` unless a state with a higher or equal `step` is stored already. */
  async save(runId: string, state: RunState): Promise<void> {
    checkSaveArguments(runId, state);
    const saved = this.#runs.get(runId);
    if (saved !== undefined && saved.step >= state.step) return;
    this.#runs.set(runId, { step: state.step, state: copyOf(state) });
  }

  /** The newest state of `runId`, a copy; `undefined` when none is stored. */
  async load(runId: string): Promise<RunState | undefined> {
    checkRunId(runId);
    const saved = this.#runs.get(runId);
    return saved === undefined ? undefined : validateRunState(copyOf(saved.state));
  }

  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    this.#runs.delete(runId);
  }

  /** The ids of the runs stored, in the order they were first saved. */
  runIds(): string[] {
    return [...this.#runs.keys()];
  }
}

/** A copy no change to `state` reaches: its fields through JSON, its message list sliced. */
function copyOf(state: RunState): RunState {
  const { messages, ...fields } = state;
  return {
    ...(JSON.parse(JSON.stringify(fields)) as Omit<RunState, 'messages'>),
    messages: messages.slice(),
  };
}
