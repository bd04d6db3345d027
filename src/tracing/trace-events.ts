import type { ChatMessage, ToolCall } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { Usage } from '../model/usage.js';

/**
 * Why a run ended. `'budget_exceeded'`: a `budget` limit was reached; `'loop_detected'`: the loop
 * guard saw the model keep repeating itself (see `loopGuard`); `'refusal'`: the model refused to
 * answer (a response with `finish_reason: 'refusal'`, Anthropic's `stop_reason: 'refusal'`);
 * `'guardrail_tripped'`: a guardrail returned a tripwire (see `guardrails`).
 */
export type StopReason =
  | 'final'
  | 'max_turns'
  | 'stop_condition'
  | 'aborted'
  | 'budget_exceeded'
  | 'loop_detected'
  | 'refusal'
  | 'guardrail_tripped';

/**
 * Where a guardrail judges the run: its starting messages (`'input'`), its final answer
 * (`'output'`), a tool call before it runs (`'tool_input'`), or a tool's result before the model
 * sees it (`'tool_output'`).
 */
export type GuardrailKind = 'input' | 'output' | 'tool_input' | 'tool_output';

/** What trace events carry: everything, or no message text, tool arguments or tool results. */
export type TraceContent = 'full' | 'metadata';

/**
 * A content part as a trace event carries it: a text part with its text cut to `maxTraceChars`; an
 * image or file by its URL, or, when it was base64 data or a `data:` URL, by its size in `bytes`
 * (the data itself is never copied into a trace).
 */
export type TraceContentPart =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'image' | 'file';
      readonly mediaType?: string;
      readonly filename?: string;
      readonly url?: string;
      readonly bytes?: number;
    };

/** A budget limit, by its option name. */
export type BudgetLimit = 'maxTotalTokens' | 'maxToolCalls' | 'maxDurationMs' | 'maxCostUsd';

/** A tool call named in a warning: its id and tool name, never its arguments. */
export interface ToolCallReference {
  readonly id: string;
  readonly name: string;
}

/** The payload of each trace event type. */
export interface TraceEventData {
  run_start: {
    readonly messageCount: number;
    readonly toolNames: readonly string[];
    readonly maxTurns: number;
    readonly requestId: string;
  };
  llm_call: {
    /**
     * Where the call went: the adapter's `provider` (`'openai'`, `'deepseek'`, or a custom
     * adapter's name), when it names one. OpenTelemetry's `gen_ai.provider.name`.
     */
    readonly provider?: string;
    /**
     * The model the call asked for: the adapter's `model`, when it names one (`response.model` is
     * the one the provider says answered). OpenTelemetry's `gen_ai.request.model`.
     */
    readonly model?: string;
    /**
     * The messages sent on this call (what `prepareTurn` sent, when it replaced them): a snapshot
     * that later turns never change. Empty with `traceContent: 'metadata'`.
     */
    readonly messages: readonly ChatMessage[];
    /** How many messages were sent on this call, in both trace content modes. */
    readonly messageCount: number;
    /**
     * The full response, its reasoning and provider data included. With `traceContent: 'metadata'`:
     * `content` is null, `reasoning_content`, `reasoning` and `providerData` are left out and tool call
     * arguments are `''` (a call's provider data is left out too).
     */
    readonly response: ModelResponse;
    readonly usage: Usage | undefined;
    readonly durationMs: number;
    /** True for the extra call with tools disabled after `maxTurns` (`onCutShort: 'final_answer'`). */
    readonly finalAnswer: boolean;
    /**
     * The estimated size of what this call sent, in tokens (messages and tool definitions), with
     * `contextWindow` on: the running estimate, corrected by the provider's prompt tokens so far.
     */
    readonly contextTokens?: number;
  };
  /**
   * The model's reasoning on a call, when it shows any: `reasoning_content`, else the text of its
   * reasoning parts, joined by blank lines. `content` is `''` with `traceContent: 'metadata'`.
   */
  reasoning_content: { readonly content: string };
  /** `delta` is `''` with `traceContent: 'metadata'` (the event still marks the time). */
  content_delta: { readonly delta: string };
  /** `delta` is `''` with `traceContent: 'metadata'`. */
  reasoning_delta: { readonly delta: string };
  /** `argumentsDelta` is `''` with `traceContent: 'metadata'`. */
  tool_call_delta: {
    readonly index: number;
    readonly id?: string;
    readonly name?: string;
    readonly argumentsDelta: string;
  };
  tool_call: {
    /** The call as it runs (after `repairToolCall`); its arguments are `''` with `traceContent: 'metadata'`. */
    readonly toolCall: ToolCall;
    /** The id the model sent, when it had to be made unique within the turn. */
    readonly originalId?: string;
  };
  tool_call_repaired: {
    readonly toolCallId: string;
    /** The call the model sent, which failed to parse or validate or named an unknown tool. */
    readonly original: ToolCall;
    /** The call `repairToolCall` returned, which runs instead (with the original's id). */
    readonly repaired: ToolCall;
    /** Why the original could not run. */
    readonly errorCode: 'unknown_tool' | 'invalid_json' | 'invalid_arguments';
    /** The error the model would have received; `''` with `traceContent: 'metadata'`. */
    readonly error: string;
  };
  tool_result: {
    readonly toolCallId: string;
    readonly name: string;
    /** The tool's return value, when it succeeded (left out with `traceContent: 'metadata'`). */
    readonly result?: unknown;
    /** The error message sent to the model, when it failed (`''` with `traceContent: 'metadata'`). */
    readonly error?: string;
    readonly errorCode?: string;
    /**
     * What the model receives as the tool message content (`''` with `traceContent: 'metadata'`):
     * a string, or the parts of a `toolContent` result, images and files by reference.
     */
    readonly content: string | readonly TraceContentPart[];
    /**
     * The characters of what the model receives, in both trace content modes: the string's length,
     * or the parts' texts, base64 data and URLs together.
     */
    readonly contentLength: number;
    readonly durationMs: number;
  };
  /** One guardrail's check finished (see `guardrails`); checks cut short by another's tripwire have none. */
  guardrail: {
    /** The guardrail's `name`. */
    readonly name: string;
    readonly kind: GuardrailKind;
    /** `'replace'`: the model sees the guardrail's result instead of the tool's (tool guardrails only). */
    readonly verdict: 'pass' | 'tripwire' | 'replace';
    /** The tripwire's message (a thrown error's, when the check threw); `''` with `traceContent: 'metadata'`. */
    readonly message?: string;
    /** The call judged (tool guardrails only). */
    readonly toolCall?: ToolCallReference;
    readonly durationMs: number;
  };
  /**
   * The conversation was handed to another agent (see `handoffs`): the next model call is that
   * agent's. `toolCallId` is the transfer call's.
   */
  handoff: {
    /** The `name` of the agent that handed off. */
    readonly from: string;
    /** The `name` of the agent the run goes on with. */
    readonly to: string;
    readonly toolCallId: string;
  };
  /** What was sent was reduced to fit the context window (`contextWindow`). */
  context_compacted: {
    /** `'custom'`: the `contextWindow.strategy` function. */
    readonly strategy: 'mask_observations' | 'summarize' | 'custom';
    /** `'high_water'`: the next call would pass the limit; `'overflow'`: the provider refused the call as too long. */
    readonly reason: 'high_water' | 'overflow';
    /** Estimated tokens of the call before and after the reduction. */
    readonly tokensBefore: number;
    readonly tokensAfter: number;
    /** `maxTokens` less `reserveOutputTokens`. */
    readonly limit: number;
    /** The calls whose results this reduction replaced with a placeholder (`'mask_observations'`). */
    readonly maskedToolCalls: readonly ToolCallReference[];
    /** Transcript messages the summary stands for (`'summarize'`), or messages the strategy left out (`'custom'`). */
    readonly removedMessageCount: number;
    /** The summary the model wrote (`'summarize'`; `''` with `traceContent: 'metadata'`). */
    readonly summary?: string;
    /** Usage of the summary call, which also counts towards the run's. */
    readonly usage?: Usage;
    readonly durationMs?: number;
  };
  warning: {
    /**
     * What happened: `max_turns`, `length`, `truncated_tool_call`, `final_answer_tool_calls`,
     * `repeated_tool_call`, `repeated_tool_errors`, `budget_exceeded`, `tools_still_running`,
     * `repair_failed`, `context_over_limit`, `summarize_failed`, `provider_data_dropped` (the transcript
     * holds reasoning or fields of another API, which the adapter does not send), `refusal` (the model
     * refused; the run ends with `stopReason: 'refusal'`), and what an adapter reports in
     * `ModelResponse.warnings` (`tool_choice_with_thinking`, `thought_signature_skipped`).
     */
    readonly code: string;
    /** For people; never holds tool arguments or results. */
    readonly message: string;
    /** The tool it is about (`repeated_tool_call`, `repeated_tool_errors`, `repair_failed`). */
    readonly toolName?: string;
    /** The calls it is about (`repeated_tool_call`: the blocked call; `tools_still_running`: every call still running). */
    readonly toolCalls?: readonly ToolCallReference[];
    /** The limit that was reached (`budget_exceeded`). */
    readonly limit?: BudgetLimit;
  };
  error: {
    /** What went wrong (`''` with `traceContent: 'metadata'`: adapter errors can quote the response). */
    readonly message: string;
    readonly code?: string;
    readonly name: string;
    /**
     * The run's adapter's `provider` and `model`, when it names them: where a model call that
     * failed went (as on `llm_call`).
     */
    readonly provider?: string;
    readonly model?: string;
  };
  run_end: {
    /** `'awaiting_approval'`: the run paused for a person's decision and ends here until resumed. */
    readonly stopReason: StopReason | 'awaiting_approval' | 'error';
    readonly turns: number;
    readonly usage: Usage;
    readonly durationMs: number;
    /** What the run cost in USD, when `budget.pricing` is given. */
    readonly costUsd?: number;
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
  /**
   * The parent run's tool call that spawned this run, when the spawning tool says so
   * (`explore_codebase` does). Viewers nest the run under that call.
   */
  readonly parentToolCallId?: string;
  /** Zero-based model turn; `run_start` is turn 0. */
  readonly turn: number;
  /** Strictly increasing within a run, from 0. */
  readonly seq: number;
  readonly data: TraceEventData[Type];
}

/** The discriminated union of all trace events, on `type`. */
export type TraceEvent = { [Type in TraceEventType]: TraceEventOf<Type> }[TraceEventType];

/** Receives trace events: a JSONL file, a logger, an HTTP endpoint. May be async; failures never stop a run. */
export type TraceEmitter = (event: TraceEvent) => void | Promise<void>;

/** A destination for trace events, for callers that prefer an object to a function. */
export interface TraceSink {
  write(event: TraceEvent): void | Promise<void>;
}
