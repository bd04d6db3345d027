import type { ChatMessage } from '../model/messages.js';
import { TranscriptTracker } from './transcript-tracker.js';

/** How many runs' trackers a store keeps; the least recently used is dropped past it. */
const maxRuns = 256;

/**
 * The transcript trackers of the runs a store instance is writing, least recently used dropped
 * first, and dropped at once when a run ends: a long-lived server never holds the messages of
 * every run it ever saved. Dropping one only costs hashing that run's messages again.
 */
export class TrackerCache {
  readonly #trackers = new Map<string, TranscriptTracker>();

  /** The tracker of `runId`, made when there is none. */
  get(runId: string): TranscriptTracker {
    const tracker = this.#trackers.get(runId) ?? new TranscriptTracker();
    this.#touch(runId, tracker);
    return tracker;
  }

  /**
   * Records that storage holds `messages` as of checkpoint `step` (a save, or a load);
   * `ended` drops the run's tracker instead: no more saves will come.
   */
  remember(
    runId: string,
    messages: readonly ChatMessage[],
    hashes: readonly string[],
    step: number,
    ended: boolean,
  ): void {
    if (ended) this.#trackers.delete(runId);
    else this.get(runId).remember(messages, hashes, step);
  }

  forget(runId: string): void {
    this.#trackers.delete(runId);
  }

  #touch(runId: string, tracker: TranscriptTracker): void {
    this.#trackers.delete(runId);
    this.#trackers.set(runId, tracker);
    if (this.#trackers.size > maxRuns) {
      const oldest = this.#trackers.keys().next().value;
      if (oldest !== undefined) this.#trackers.delete(oldest);
    }
  }
}
