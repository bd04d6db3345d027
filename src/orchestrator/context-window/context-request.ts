import type { ChatMessage } from '../../model/messages.js';
import type { ModelAdapter, ModelToolDefinition } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import type { TraceDispatcher } from '../../tracing/trace-dispatcher.js';
import type { ResolvedContextWindow } from './context-window-options.js';

/** What a run gives its context window once: the resolved options and the run's own services. */
export interface ContextWindowSetup {
  readonly options: ResolvedContextWindow;
  /** Makes the `'summarize'` strategy's call. */
  readonly adapter: ModelAdapter;
  /** Receives `context_compacted` and the window's warnings. */
  readonly trace: TraceDispatcher;
  readonly now: () => number;
  /** The run's signal: a summary call or a custom strategy ends when it aborts. */
  readonly signal: AbortSignal | undefined;
}

/** What one model call is about to send. */
export interface ContextRequest {
  /** The run's transcript. */
  readonly transcript: readonly ChatMessage[];
  /** What the call sends: the transcript itself, or what `prepareTurn` returned. */
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  /** Model calls made so far (a custom strategy is told it). */
  readonly turn: number;
  /** Counts the usage of a model call the window makes (the summary) towards the run's. */
  readonly countUsage: (usage: Usage) => void;
}

/**
 * What a call sends once the context window is applied, and its estimated size in tokens.
 * `messages` is the request's own array while nothing is reduced, else an array of the window's;
 * either way it is only ever appended to afterwards, so a prefix of it is a stable snapshot.
 */
export interface ContextPlan {
  readonly messages: readonly ChatMessage[];
  readonly tokens: number;
}
