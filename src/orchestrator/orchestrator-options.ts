import type { CheckpointStore } from '../durable/checkpoint-store.js';
import type {
  ApprovalDecision,
  PendingApproval,
  RunState as SavedRunState,
  RunStateStopReason,
} from '../durable/run-state.js';
import type { ChatMessage } from '../model/messages.js';
import type { ToolChoice } from '../model/model-adapter.js';
import type { Usage } from '../model/usage.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import type { TraceContent, TraceEmitter, TraceEvent } from '../tracing/trace-events.js';
import type { RunBudget } from './budget.js';
import type { ContextWindowOptions } from './context-window/context-window-options.js';
import type { LoopGuardOptions } from './loop-guard.js';
import type { StopCondition } from './stop-conditions.js';
import type { PrepareTurnHook, RepairToolCall } from './turn-hooks.js';
import type { OutputOption } from './output/output-options.js';
import type { GuardrailOptions } from './guardrails/guardrail-options.js';
import type { HandoffsOption } from './handoffs/handoff.js';

/**
 * What to do when a run is cut short: `maxTurns` model calls were made and the model still wants
 * tools, a `budget` limit is reached, or the loop guard ends the run. Return the result, make one
 * more call with tools off (`'final_answer'`; not after a `maxTotalTokens` or `maxCostUsd` limit),
 * or throw `MaxTurnsExceededError`, `BudgetExceededError` or `LoopDetectedError` carrying the
 * partial result.
 */
export type OnCutShort = 'return' | 'final_answer' | 'throw';

/** Options of {@link ToolOrchestrator}. */
export interface ToolOrchestratorOptions<
  Context extends object = Record<string, unknown>,
  OutputSchema = undefined,
> {
  /**
   * A typed final output for every run: a zod 3/4 schema, a JSON Schema, or {@link OutputOptions}.
   * The model's final answer is validated against it and comes back as `result.output`, typed from
   * the schema. The provider's native structured output is used where the adapter has it, else a
   * final-answer tool; an answer that does not match gets one repair turn, then
   * `StructuredOutputError`. A run that ends without a final answer (`maxTurns`, a stop condition,
   * the loop guard, a budget limit) makes one more call with the tools off for it. See docs/agents.md.
   * @default none: `result.output` is undefined
   */
  readonly output?: OutputOption<OutputSchema>;
  /**
   * The agent's instructions: the system prompt of every run that is given none (`run()`'s
   * `systemPrompt` wins, and so do messages that start with a system message).
   * @default none
   */
  readonly instructions?: string;
  /**
   * The agent's name: letters, digits, `_` and `-`, at most 52 characters. Names its
   * `transfer_to_<name>` tool, the `handoff` events and `result.agent`. Required for an agent that
   * has `handoffs` or is the target of one. @default none
   */
  readonly name?: string;
  /**
   * What the agent does, written for a model: the description of the `transfer_to_<name>` tool of
   * handoffs to it. @default `Hands the conversation to the <name> agent.`
   */
  readonly description?: string;
  /**
   * The agents this one can hand the conversation to: orchestrators, or `handoff(orchestrator,
   * options)` entries. The model sees one `transfer_to_<name>` tool per entry; on a transfer, the
   * run goes on with that agent's instructions, tools, adapter and options. A function returning
   * the list is read at the first run, so agents can hand off to each other (a cycle). See
   * docs/agents.md#handoffs. @default none
   */
  readonly handoffs?: HandoffsOption;
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
  /**
   * What to do when the run is cut short before the model's final answer: by `maxTurns`, a
   * `budget` limit or the loop guard (see {@link OnCutShort}). @default 'return'
   */
  readonly onCutShort?: OnCutShort;
  /**
   * With `onCutShort: 'final_answer'`, appended as a user message before the last call, e.g.
   * `'Without calling tools, summarize what you found.'` @default none: the transcript goes as it is
   */
  readonly finalAnswerPrompt?: string;
  /** Aborts every run of this orchestrator; a run's own `signal` is combined with it. */
  readonly signal?: AbortSignal;
  /** Use `adapter.stream()` and emit `content_delta`, `reasoning_delta` and `tool_call_delta` events. @default false */
  readonly stream?: boolean;
  /** Keep events in the returned `traces`; turn off for very long runs. @default true */
  readonly collectTraces?: boolean;
  /**
   * Tool message content, or a tool's error message, longer than this is cut with a marker (default
   * runner only). @default 100_000
   */
  readonly maxToolResultChars?: number;
  /** Clock for timestamps and durations, in epoch milliseconds. @default performance.timeOrigin + performance.now(), or `Date.now()` where there is no `performance` */
  readonly now?: () => number;
  /** Generates run and request ids. @default crypto.randomUUID, or a UUID from `Math.random()` where there is no `crypto` */
  readonly generateId?: () => string;
  /** Id of a parent run, stamped on every event (subagents). */
  readonly parentRunId?: string;
  /** Called when a trace sink or listener throws, so failures are visible without stopping runs. */
  readonly onTraceError?: (error: unknown, event: TraceEvent) => void;
  /**
   * Called before every model call: may limit the tools (`activeTools`), set this call's
   * `toolChoice`, or change the messages sent. A run's own `prepareTurn` replaces it.
   */
  readonly prepareTurn?: PrepareTurnHook;
  /**
   * The tool choice sent on every model call (an adapter's own `toolChoice` is its default).
   * @default not sent: the adapter's default, usually the provider's `'auto'`
   */
  readonly toolChoice?: ToolChoice;
  /**
   * After a turn in which a forced `toolChoice` (`'required'` or a named function) produced tool
   * calls, send `'auto'` for the rest of the run, so a forced choice does not loop to `maxTurns`.
   * @default true
   */
  readonly resetToolChoice?: boolean;
  /** Called for a tool call that fails to parse or validate or names an unknown tool; may return a call to run instead. */
  readonly repairToolCall?: RepairToolCall;
  /**
   * Catches a model repeating the same call, or a tool failing again and again (see
   * {@link LoopGuardOptions}). On by default; `false` turns it off.
   * @default { identicalCalls: 3, repeatedErrors: 3, action: 'block' }
   */
  readonly loopGuard?: LoopGuardOptions | boolean;
  /** Limits on tokens, tool calls, time and cost, for every run; a run's own `budget` is merged over it. */
  readonly budget?: RunBudget;
  /**
   * `'metadata'`: events carry no message text, reasoning, tool arguments, tool results or error
   * messages; only names, ids, counts, sizes, durations, usage and error codes. For tool data
   * that holds secrets. The run's result (`messages`, `content`, `textStream`) is unchanged.
   * @default 'full'
   */
  readonly traceContent?: TraceContent;
  /**
   * The most characters of one text a `tool_result` event carries: a tool's result (a string, or
   * the JSON of a larger value), the tool message content and the error. Longer texts are cut and
   * end with a `[trace cut: ...]` marker, in `traces`, in every sink and listener. The transcript
   * and what the model receives are unchanged (see `maxToolResultChars`).
   * @default 200_000 (twice the default `maxToolResultChars`, so by default every event shows the
   * content the model received in full)
   */
  readonly maxTraceChars?: number;
  /**
   * After an abort, how long the run waits for tools still running before it settles anyway,
   * with a `tools_still_running` warning listing them. @default 2000
   */
  readonly abortGraceMs?: number;
  /**
   * Saves the run's state (a `RunState`) after each model response and each tool result, before
   * the next step, so `resume(runId)` can go on after a crash. A run's own `checkpointStore`
   * replaces it. @default none: nothing is saved
   */
  readonly checkpointStore?: CheckpointStore;
  /**
   * Keeps what each model call sends under the model's context window: older tool results are
   * masked (or the oldest turns summarized) when the next call would pass it, and a provider's
   * context-length refusal is answered by reducing and retrying once. `true` takes the window from
   * the adapter. The returned transcript stays complete. See docs/context-window.md.
   * @default off
   */
  readonly contextWindow?: ContextWindowOptions | boolean;
  /**
   * Checks on the run's input, its final answer, and each tool call before and after it runs; a
   * tripwire ends the run with `stopReason: 'guardrail_tripped'` and a `GuardrailTrippedError`.
   * A run's own `guardrails` run after these. See docs/agents.md. @default none
   */
  readonly guardrails?: GuardrailOptions<Context>;
}

/** Per-run overrides. */
export interface RunOptions<Context extends object = Record<string, unknown>, OutputSchema = undefined> {
  /** Replaces the orchestrator's `output` for this run (see `ToolOrchestratorOptions.output`). */
  readonly output?: OutputOption<OutputSchema>;
  /** Aborts this run; combined with the orchestrator's `signal`. */
  readonly signal?: AbortSignal;
  /** Replaces the orchestrator's `context` for this run. */
  readonly context?: Context;
  /** Overrides `maxTurns` for this run. */
  readonly maxTurns?: number;
  /** Stamped on this run's events as `parentRunId`. */
  readonly parentRunId?: string;
  /**
   * Receives this run's events only, in `seq` order, deltas included. Like `on()`, a listener
   * that throws never breaks the run (`onTraceError` sees it).
   */
  readonly onEvent?: (event: TraceEvent) => void;
  /** Replaces the orchestrator's `prepareTurn` for this run. */
  readonly prepareTurn?: PrepareTurnHook;
  /** Replaces the orchestrator's `toolChoice` for this run. */
  readonly toolChoice?: ToolChoice;
  /** Merged over the orchestrator's `budget`, limit by limit. */
  readonly budget?: RunBudget;
  /** Replaces the orchestrator's `loopGuard` for this run. */
  readonly loopGuard?: LoopGuardOptions | boolean;
  /** Replaces the orchestrator's `checkpointStore` for this run. */
  readonly checkpointStore?: CheckpointStore;
  /**
   * The run's id (`result.runId`, every event's `runId`, the key of its checkpoints), so you know
   * it before the run ends: to resume it after a crash. Must be new to the checkpoint store.
   * @default crypto.randomUUID() (the `generateId` option)
   */
  readonly runId?: string;
  /** Replaces the orchestrator's `contextWindow` for this run (`false` turns it off). */
  readonly contextWindow?: ContextWindowOptions | boolean;
  /** Added after the orchestrator's `guardrails`, kind by kind: a run cannot drop the orchestrator's. */
  readonly guardrails?: GuardrailOptions<Context>;
}

/** What `resume()` takes: a run's options (its `runId` aside), decisions on calls, and `force`. */
export interface ResumeOptions<
  Context extends object = Record<string, unknown>,
  OutputSchema = undefined,
> extends Omit<RunOptions<Context, OutputSchema>, 'runId'> {
  /** Decisions on calls waiting for approval, by tool call id (`result.pendingApprovals`). */
  readonly approvals?: { readonly [toolCallId: string]: ApprovalDecision };
  /**
   * Resume even when the tools or the model differ from the ones the run was saved with (the
   * differences would otherwise throw `ResumeMismatchError`). @default false
   */
  readonly force?: boolean;
}

/** What `run()` resolves to; `Output` is the type of the typed `output`, when one was asked for. */
export interface RunResult<Output = unknown> {
  /** The final assistant content (`null` becomes `''`). */
  readonly content: string;
  /** Every event of the run (empty with `collectTraces: false`). */
  readonly traces: TraceEvent[];
  /** The whole transcript, the system prompt and final assistant message included. */
  readonly messages: ChatMessage[];
  /** Why the run stopped: a `StopReason`, or `'awaiting_approval'` while calls wait for a person's decision. */
  readonly stopReason: RunStateStopReason;
  /** Model calls made. */
  readonly turns: number;
  /** Token usage summed over the run. */
  readonly usage: Usage;
  /** What the run cost in USD; set when `budget.pricing` is given. */
  readonly costUsd?: number;
  /**
   * The estimated context size of each model call, in tokens, in call order (the summary call of
   * `'summarize'` aside); set when `contextWindow` is on.
   */
  readonly contextTokens?: readonly number[];
  readonly runId: string;
  /** The calls that wait for a decision (`stopReason: 'awaiting_approval'` only), in call order. */
  readonly pendingApprovals?: readonly PendingApproval[];
  /** The run's state to resume from (`stopReason: 'awaiting_approval'` only); plain JSON. */
  readonly state?: SavedRunState;
  /**
   * The typed output (the `output` option), validated against its schema; absent when the run
   * asked for none, or ended without one (aborted, awaiting approval, refused, stopped at a
   * spend limit: an `output_missing` warning says which).
   */
  readonly output?: Output;
  /**
   * The `name` of the agent the run ended with: the one that gave the final answer, after any
   * handoffs; the orchestrator's own name when no handoff happened. Absent for an agent with no name.
   */
  readonly agent?: string;
}
