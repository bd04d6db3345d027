import type { ChatMessage } from '../model/messages.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { checkRunId, checkSaveArguments } from './check-save-arguments.js';
import type { RunState } from './run-state.js';
import { validateRunState } from './validate-run-state.js';

interface SavedRun {
  readonly step: number;
  /** Every field but the messages, as JSON: a copy the caller cannot change afterwards. */
  readonly fields: string;
  readonly messages: readonly ChatMessage[];
}

/**
 * Keeps checkpoints in this process's memory: for tests, and for human approval within one
 * process. Nothing survives a restart; use `FileCheckpointStore` or `PostgresCheckpointStore` for that.
 *
 * A save copies the state's small fields (as JSON) and keeps the messages by reference (messages
 * are immutable), so it costs the same whatever the length of the transcript.
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
    const { messages, ...fields } = state;
    this.#runs.set(runId, { step: state.step, fields: JSON.stringify(fields), messages: messages.slice() });
  }

  /** The newest state of `runId`, a copy; `undefined` when none is stored. */
  async load(runId: string): Promise<RunState | undefined> {
    checkRunId(runId);
    const saved = this.#runs.get(runId);
    if (saved === undefined) return undefined;
    return validateRunState({ ...(JSON.parse(saved.fields) as object), messages: saved.messages.slice() });
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
