import type { Usage } from '../../../src/index.js';

/**
 * What every fake provider of the conformance suite offers the scenarios, whatever wire it speaks
 * (Chat Completions, Responses, Messages): a server for another API implements this interface.
 */

/** An answer the server gives before going on with its plan: a 429, a 5xx, an overload. */
export interface InjectedFailure {
  readonly status: number;
  readonly message?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What one request sent of the transcript. */
export interface SentTranscript {
  readonly toolResults: ReadonlyMap<string, string>;
  readonly assistantTurns: number;
}

/** A running fake provider that answers by a plan and enforces its provider's rules. */
export interface ConformanceServer {
  readonly baseURL: string;
  /** Every request body received, in order. */
  readonly requests: Record<string, unknown>[];
  /** Every 400 the server answered because a rule was broken, with its message. */
  readonly rejections: string[];
  /** The usage of every answer the server completed, in the adapter's normalised form. */
  readonly issuedUsage: Usage[];
  /**
   * What request `index` (negative: from the end) sent of the transcript, in the wire's own terms
   * read back: each tool result's content by call id, and the number of assistant turns.
   */
  sentTranscript(index: number): SentTranscript;
  /** Answers the next requests with these failures, in order, before the plan goes on. */
  failNext(...failures: InjectedFailure[]): void;
  /** Resolves when a stalled stream's client has gone away (bounded: rejects after 10 s). */
  stalledStreamClosed(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Resolves once a stream has stalled and its client has gone away: `closed()` gives the promise
 * of the stalled stream's close, or `undefined` while no stream has stalled. Rejects after 10 s of
 * either wait.
 */
export async function waitForStalledStream(closed: () => Promise<void> | undefined): Promise<void> {
  let stalled = closed();
  for (let waited = 0; stalled === undefined; waited += 10) {
    if (waited > 10_000) throw new Error('no stream stalled within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
    stalled = closed();
  }
  await Promise.race([
    stalled,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the stalled stream was still open after 10 s')), 10_000).unref(),
    ),
  ]);
}
