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
