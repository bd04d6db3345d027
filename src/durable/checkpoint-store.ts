import type { RunState } from './run-state.js';

/**
 * Where checkpoints of runs are kept. Small enough to write your own: three methods, keyed by run id.
 * `MemoryCheckpointStore`, `FileCheckpointStore` and `PostgresCheckpointStore`
 * (`tool-orchestrator/postgres`) implement it.
 *
 * The contract every store keeps:
 * - `save` resolves once the state is stored; `load` then returns an equal state.
 * - The newest state wins: a `save` whose `state.step` is not above the stored state's `step` is
 *   ignored, so late or concurrent saves never replace a newer checkpoint.
 * - A crash during `save` leaves the previous checkpoint readable, never a mix of the two.
 * - `load` of a run never saved (or deleted) resolves to `undefined`; `delete` of one is a no-op.
 * - States are treated as immutable: a store may keep references to the saved messages.
 */
export interface CheckpointStore {
  /** Stores `state` as the checkpoint of run `runId` (which must be `state.runId`). */
  save(runId: string, state: RunState): Promise<void>;
  /** The newest saved state of run `runId`, or `undefined` when there is none. */
  load(runId: string): Promise<RunState | undefined>;
  /** Removes every checkpoint of run `runId`. */
  delete(runId: string): Promise<void>;
}
