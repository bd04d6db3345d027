import type { ChatMessage, MessageContent, ToolCall } from '../../model/messages.js';
import type { ToolErrorCode } from '../../tools/tool-call-outcome.js';

/**
 * What a guardrail decides: let the run go on (`'pass'`), or end it (`'tripwire'`): the run ends
 * with `stopReason: 'guardrail_tripped'` and `run()` rejects with a `GuardrailTrippedError`
 * carrying `message` and `info`.
 */
export type GuardrailVerdict =
  | { readonly type: 'pass' }
  | {
      readonly type: 'tripwire';
      /** Why it tripped, for people: on the error and (with `traceContent: 'full'`) the `guardrail` event. */
      readonly message: string;
      /** Anything the caller needs to act on it (a classifier's scores, the matched text); on the error only. */
      readonly info?: unknown;
    };

/**
 * What a tool guardrail decides: a {@link GuardrailVerdict}, or `'replace'`: the model sees
 * `result` as the tool's result and the run goes on. A tool-input guardrail's replacement answers
 * the call without running it.
 */
export type ToolGuardrailVerdict = GuardrailVerdict | { readonly type: 'replace'; readonly result: string };

/** What every guardrail is given besides what it judges. */
export interface GuardrailRunInfo<Context extends object = Record<string, unknown>> {
  /** The run's `context` (the run's own, else the orchestrator's). */
  readonly context: Context;
  readonly runId: string;
  /**
   * Aborts when the run is aborted, and for input and output guardrails also when another
   * guardrail of the same check trips (its verdict would not be used).
   */
  readonly signal: AbortSignal;
}

/** What an input guardrail judges: the messages the run starts with. */
export interface InputGuardrailInfo<
  Context extends object = Record<string, unknown>,
> extends GuardrailRunInfo<Context> {
  /** The transcript before the first model call, the system prompt first when there is one. */
  readonly messages: readonly ChatMessage[];
}

/** What an output guardrail judges: the run's final answer. */
export interface OutputGuardrailInfo<
  Context extends object = Record<string, unknown>,
> extends GuardrailRunInfo<Context> {
  /** The final answer's text (`null` content becomes `''`). */
  readonly content: string;
  /** The run's typed output; `undefined` until runs have one. */
  readonly output: unknown;
  /** The transcript before the final answer. */
  readonly messages: readonly ChatMessage[];
}

/** What a tool-input guardrail judges: a tool call about to run. */
export interface ToolInputGuardrailInfo<
  Context extends object = Record<string, unknown>,
> extends GuardrailRunInfo<Context> {
  /** The call as it would run: its id, tool name and arguments as the model wrote them (a JSON string). */
  readonly toolCall: ToolCall;
  /** The arguments parsed and validated against the tool's schema: what the tool's `execute` would get. */
  readonly arguments: unknown;
}

/** What a tool-output guardrail judges: a tool's result before the model sees it. */
export interface ToolOutputGuardrailInfo<
  Context extends object = Record<string, unknown>,
> extends GuardrailRunInfo<Context> {
  readonly toolCall: ToolCall;
  /** What the model would receive as the tool message content: the result as text, JSON, parts, or `{"error": "..."}`. */
  readonly content: MessageContent;
  /** The tool's return value; `undefined` when the tool failed. */
  readonly result: unknown;
  /** Why the call failed, when it did: `'tool_error'` (it threw), `'timeout'` or `'unserializable_result'`. */
  readonly errorCode?: ToolErrorCode;
}

/**
 * Checks the messages a run starts with, before the first model call. With `runInParallel` the
 * first model call starts at once instead of waiting: when the guardrail trips, that call is
 * aborted and its response is not used (its usage counts when it had arrived).
 */
export interface InputGuardrail<Context extends object = Record<string, unknown>> {
  /** Names it in the `guardrail` event and the error. */
  readonly name: string;
  /**
   * Run beside the first model call instead of before it: the answer comes sooner when the
   * guardrail passes, at the cost of that call when it trips. A streamed run may show the call's
   * first text before the guardrail trips. @default false
   */
  readonly runInParallel?: boolean;
  /** Judges the messages; a check that throws counts as a tripwire carrying the error. */
  check(info: InputGuardrailInfo<Context>): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/**
 * Checks the run's final answer: the answer that ends the run with `'final'`, or the tools-off
 * answer of `onCutShort: 'final_answer'`. A tripped answer is left out of the transcript.
 */
export interface OutputGuardrail<Context extends object = Record<string, unknown>> {
  readonly name: string;
  /** Judges the answer; a check that throws counts as a tripwire carrying the error. */
  check(info: OutputGuardrailInfo<Context>): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/**
 * Checks each tool call before it runs (after approval, when the tool needs it). Calls that name
 * an unknown tool or whose arguments fail the schema never run, so they are not checked.
 */
export interface ToolInputGuardrail<Context extends object = Record<string, unknown>> {
  readonly name: string;
  /** Judges the call; a check that throws counts as a tripwire carrying the error. */
  check(info: ToolInputGuardrailInfo<Context>): ToolGuardrailVerdict | Promise<ToolGuardrailVerdict>;
}

/**
 * Checks what a tool returned, or the error it threw or timed out with, before the model sees it
 * and before it is saved to a checkpoint. Calls that did not run (refused, denied, aborted) are not checked.
 */
export interface ToolOutputGuardrail<Context extends object = Record<string, unknown>> {
  readonly name: string;
  /** Judges the result; a check that throws counts as a tripwire carrying the error. */
  check(info: ToolOutputGuardrailInfo<Context>): ToolGuardrailVerdict | Promise<ToolGuardrailVerdict>;
}

/**
 * The guardrails of a run, by where they judge it. Input and output guardrails of one check run
 * at once (the first tripwire ends the check); tool guardrails run one after another, in list
 * order, and the first verdict that is not `'pass'` decides.
 */
export interface GuardrailOptions<Context extends object = Record<string, unknown>> {
  readonly input?: readonly InputGuardrail<Context>[];
  readonly output?: readonly OutputGuardrail<Context>[];
  readonly toolInput?: readonly ToolInputGuardrail<Context>[];
  readonly toolOutput?: readonly ToolOutputGuardrail<Context>[];
}
