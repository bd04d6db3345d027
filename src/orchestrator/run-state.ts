import type { ChatMessage } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { Usage } from '../model/usage.js';
import type { TraceDispatcher } from '../tracing/trace-dispatcher.js';

/** Everything one run owns; runs share nothing. */
export interface RunState {
  readonly runId: string;
  readonly requestId: string;
  /** Append-only: earlier messages are never replaced, so a prefix is a stable snapshot. */
  readonly messages: ChatMessage[];
  readonly trace: TraceDispatcher;
  readonly signal: AbortSignal | undefined;
  readonly startedAt: number;
  /** Every tool call id used so far in the run, to keep ids unique across turns. */
  readonly toolCallIds: Set<string>;
  turns: number;
  usage: Usage;
  lastResponse: ModelResponse | undefined;
}

/**
 * Returns a getter for the first `count` messages. The transcript only ever grows, so slicing
 * lazily on first access gives the same array an eager copy would, without copying every turn
 * (which made long runs quadratic).
 */
export function lazySnapshot(messages: readonly ChatMessage[], count: number): () => readonly ChatMessage[] {
  let copy: readonly ChatMessage[] | undefined;
  return () => (copy ??= messages.slice(0, count));
}
