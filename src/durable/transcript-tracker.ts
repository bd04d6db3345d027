import type { ChatMessage } from '../model/messages.js';
import { emptyHash, hashText } from '../shared/hash-text.js';

/**
 * Where the stored transcript stands: its message count and the running hash after its last
 * message ({@link TranscriptTracker}'s chain; the empty hash for none).
 */
export interface StoredTranscript {
  readonly count: number;
  readonly hash: string;
}

/** What a save writes of the transcript. */
export type TranscriptWrite =
  /** The stored messages are a prefix of the new ones: write the messages from `from` on. */
  | { readonly type: 'append'; readonly from: number }
  /**
   * The transcript was replaced: the first `from` stored messages still match, the rest differ
   * (`from` is 0 when nothing is known to match). Write the messages from `from` on, dropping
   * the stored ones from there.
   */
  | { readonly type: 'rewrite'; readonly from: number };

/**
 * Keeps, for one run, the messages this process last wrote (by reference) and the running
 * FNV-1a hash after each, so a save hashes and serialises only the messages it has not seen.
 * The hash after message `i` covers the JSON of messages `0..i`; equal hashes at the stored count
 * mean the stored messages are a prefix of the new ones, so an append is safe. A store still
 * compares with what storage says (another process may have written since).
 */
export class TranscriptTracker {
  #messages: readonly ChatMessage[] = [];
  #hashes: readonly string[] = [];
  #step = -1;

  /** Hashes `messages`, reusing the hashes of messages identical (same object) to the ones last written. */
  prepare(messages: readonly ChatMessage[]): PreparedTranscript {
    return new PreparedTranscript(messages, this.#messages, this.#hashes);
  }

  /**
   * Records that storage holds `messages` (with their running `hashes`) as of checkpoint `step`;
   * a record older than the one kept is ignored (saves that ran at once may finish in any order).
   */
  remember(messages: readonly ChatMessage[], hashes: readonly string[], step: number): void {
    if (step < this.#step) return;
    this.#messages = messages;
    this.#hashes = hashes;
    this.#step = step;
  }

  /** What this process last wrote, as a {@link StoredTranscript}. */
  get stored(): StoredTranscript {
    return { count: this.#hashes.length, hash: this.#hashes.at(-1) ?? emptyHash };
  }
}

/** A transcript about to be saved: its running hashes, and the JSON of each message on demand. */
export class PreparedTranscript {
  /** The messages, copied (the caller's array may grow after the save). */
  readonly messages: readonly ChatMessage[];
  /** The running hash after each message. */
  readonly hashes: readonly string[];
  /** How many leading messages equal the ones last written by this process. */
  readonly matching: number;
  readonly #json: (string | undefined)[];
  readonly #known: StoredTranscript;

  constructor(
    messages: readonly ChatMessage[],
    known: readonly ChatMessage[],
    knownHashes: readonly string[],
  ) {
    this.messages = messages.slice();
    this.#known = { count: knownHashes.length, hash: knownHashes.at(-1) ?? emptyHash };
    this.#json = new Array<string | undefined>(messages.length);
    const hashes = new Array<string>(messages.length);
    let previous = emptyHash;
    let matching = 0;
    let diverged = false;
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      if (!diverged && index < known.length && message === known[index]) {
        previous = knownHashes[index]!;
      } else {
        const json = JSON.stringify(message);
        this.#json[index] = json;
        previous = hashText(json, previous);
        // A copy of a written message (same JSON) still matches.
        if (!diverged && index < knownHashes.length && previous !== knownHashes[index]) diverged = true;
        if (index >= known.length) diverged = true;
      }
      hashes[index] = previous;
      if (!diverged) matching = index + 1;
    }
    this.hashes = hashes;
    this.matching = matching;
  }

  /** The JSON of message `index`, as hashed. */
  json(index: number): string {
    return (this.#json[index] ??= JSON.stringify(this.messages[index]));
  }

  /** The transcript as a {@link StoredTranscript}. */
  get stored(): StoredTranscript {
    return { count: this.hashes.length, hash: this.hashes.at(-1) ?? emptyHash };
  }

  /**
   * What to write over `stored` (what storage holds now): an append when it is a prefix of this
   * transcript, else a rewrite from the first message that differs from what this process last
   * wrote (when storage still holds that), or from 0.
   */
  planWrite(stored: StoredTranscript): TranscriptWrite {
    const { count, hash } = stored;
    if (count <= this.hashes.length && (count === 0 ? hash === emptyHash : this.hashes[count - 1] === hash)) {
      return { type: 'append', from: count };
    }
    const known = this.#known;
    const sameAsKnown = known.count === count && known.hash === hash;
    return { type: 'rewrite', from: sameAsKnown ? Math.min(this.matching, count) : 0 };
  }
}
