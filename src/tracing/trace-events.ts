import type { ChatMessage, ToolCall } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { Usage } from '../model/usage.js';

/** Why a run ended. */
export type StopReason = 'final' | 'max_turns' | 'stop_condition' | 'aborted';

/** The payload of each trace event type. */
export interface TraceEventData {
  run_start: {
    readonly messageCount: number;
    readonly toolNames: readonly string[];
    readonly maxTurns: number;
    readonly requestId: string;
  };
  llm_call: {
    /** The messages sent on this call: a snapshot that later turns never change. */
    readonly messages: readonly ChatMessage[];
    /** The full response, `reasoning_content` included. */
    readonly response: ModelResponse;
    readonly usage: Usage | undefined;
    readonly durationMs: number;
    /** True for the extra call with tools disabled after `maxTurns` (`onMaxTurns: 'final_answer'`). */
    readonly finalAnswer: boolean;
  };
  reasoning_content: { readonly content: string };
  content_delta: { readonly delta: string };
  reasoning_delta: { readonly delta: string };
  tool_call_delta: {
    readonly index: number;
    readonly id?: string;
    readonly name?: string;
    readonly argumentsDelta: string;
  };
  tool_call: {
    readonly toolCall: ToolCall;
    /** The id the model sent, when it had to be made unique within the turn. */
    readonly originalId?: string;
  };
  tool_result: {
    readonly toolCallId: string;
    readonly name: string;
    /** The tool's return value, when it succeeded. */
    readonly result?: unknown;
    /** The error message sent to the model, when it failed. */
    readonly error?: string;
    readonly errorCode?: string;
    /** What the model receives as the tool message content. */
    readonly content: string;
    readonly durationMs: number;
  };
  warning: { readonly code: string; readonly message: string };
  error: { readonly message: string; readonly code?: string; readonly name: string };
  run_end: {
    readonly stopReason: StopReason | 'error';
    readonly turns: number;
    readonly usage: Usage;
    readonly durationMs: number;
  };
}

/** Every trace event type name. */
export type TraceEventType = keyof TraceEventData;

/** One trace event of type `Type`. Every event carries `runId`, `turn`, `seq` and `timestamp`. */
export interface TraceEventOf<Type extends TraceEventType> {
  readonly type: Type;
  /**
   * Milliseconds since the epoch, from the orchestrator's clock, rounded to a whole millisecond.
   * For precise timing read the events' `durationMs`, which keeps the clock's full resolution.
   */
  readonly timestamp: number;
  readonly runId: string;
  /** The id of the run that spawned this one (explorer subagents). */
  readonly parentRunId?: string;
  /** Zero-based model turn; `run_start` is turn 0. */
  readonly turn: number;
  /** Strictly increasing within a run, from 0. */
  readonly seq: number;
  readonly data: TraceEventData[Type];
}

/** The discriminated union of all trace events. */
export type TraceEvent = { [Type in TraceEventType]: TraceEventOf<Type> }[TraceEventType];

/** Receives trace events: a JSONL file, a logger, an HTTP endpoint. May be async; failures never stop a run. */
export type TraceEmitter = (event: TraceEvent) => void | Promise<void>;

/** A destination for trace events, for callers that prefer an object to a function. */
export interface TraceSink {
  write(event: TraceEvent): void | Promise<void>;
}
