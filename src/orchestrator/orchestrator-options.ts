import type { ChatMessage } from '../model/messages.js';
import type { Usage } from '../model/usage.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import type { StopReason, TraceEmitter, TraceEvent } from '../tracing/trace-events.js';
import type { StopCondition } from './stop-conditions.js';

/** What to do when `maxTurns` model calls have been made and the model still wants tools. */
export type OnMaxTurns = 'return' | 'final_answer' | 'throw';

/** Options of {@link ToolOrchestrator}. */
export interface ToolOrchestratorOptions<Context extends object = Record<string, unknown>> {
  /** The most model calls in one run (a `'final_answer'` call comes on top). @default 10 */
  readonly maxTurns?: number;
  /** Called with every trace event. May be async; if it throws or rejects the run goes on. */
  readonly traceEmitter?: TraceEmitter;
  /** Runs the tool calls. @default new ToolRunner(toolRegistry) */
  readonly toolRunner?: ToolRunner;
  /** Caller data (e.g. `projectId`, `requestId`) handed to every tool in its context. */
  readonly context?: Context;
  /** How many of one turn's calls run at once; results are appended in call order. @default 1 */
  readonly toolConcurrency?: number;
  /** Ends the run with `stopReason: 'stop_condition'` after a turn for which any condition returns true. */
  readonly stopWhen?: StopCondition | readonly StopCondition[];
  /** @default 'return' */
  readonly onMaxTurns?: OnMaxTurns;
  /**
   * With `onMaxTurns: 'final_answer'`, appended as a user message before the last call, e.g.
   * `'Without calling tools, summarize what you found.'` @default none: the transcript goes as it is
   */
  readonly finalAnswerPrompt?: string;
  /** Aborts every run of this orchestrator; a run's own `signal` is combined with it. */
  readonly signal?: AbortSignal;
  /** Use `adapter.stream()` and emit `content_delta`, `reasoning_delta` and `tool_call_delta` events. @default false */
  readonly stream?: boolean;
  /** Keep events in the returned `traces`; turn off for very long runs. @default true */
  readonly collectTraces?: boolean;
  /** Tool message content longer than this is cut with a marker (default runner only). @default 100_000 */
  readonly maxToolResultChars?: number;
  /** Clock for timestamps and durations, in epoch milliseconds. @default performance.timeOrigin + performance.now() */
  readonly now?: () => number;
  /** Generates run and request ids. @default crypto.randomUUID */
  readonly generateId?: () => string;
  /** Id of a parent run, stamped on every event (subagents). */
  readonly parentRunId?: string;
  /** Called when a trace sink or listener throws, so failures are visible without stopping runs. */
  readonly onTraceError?: (error: unknown, event: TraceEvent) => void;
}

/** Per-run overrides. */
export interface RunOptions<Context extends object = Record<string, unknown>> {
  /** Aborts this run; combined with the orchestrator's `signal`. */
  readonly signal?: AbortSignal;
  /** Replaces the orchestrator's `context` for this run. */
  readonly context?: Context;
  /** Overrides `maxTurns` for this run. */
  readonly maxTurns?: number;
  /** Stamped on this run's events as `parentRunId`. */
  readonly parentRunId?: string;
}

/** What `run()` resolves to. */
export interface RunResult {
  /** The final assistant content (`null` becomes `''`). */
  readonly content: string;
  /** Every event of the run (empty with `collectTraces: false`). */
  readonly traces: TraceEvent[];
  /** The whole transcript, the system prompt and final assistant message included. */
  readonly messages: ChatMessage[];
  readonly stopReason: StopReason;
  /** Model calls made. */
  readonly turns: number;
  /** Token usage summed over the run. */
  readonly usage: Usage;
  readonly runId: string;
}
