import type { TraceEvent } from '../tracing/trace-events.js';
import type { ChatMessage } from '../model/messages.js';
import type { Usage } from '../model/usage.js';

/** One case of a dataset: the task's input, the values a good result has, and tags to group by. */
export interface EvalCase<Input = unknown, Expected = unknown> {
  /** A name unique in the dataset; compared reports match cases by it. @default the case's index, as a string */
  readonly id?: string;
  /** What the task receives. Plain JSON, so the report can hold it. */
  readonly input: Input;
  /** What a good result has, for the scorers: `answerEquals()` reads `expected.answer`, or `expected` itself when it is a string. */
  readonly expected?: Expected;
  readonly tags?: readonly string[];
}

/**
 * What a task returns: a `RunResult` fits as it is, and so does any object with some of its
 * fields, or the answer alone as a string.
 */
export type TaskResult =
  | string
  | {
      /** The final answer. @default '' */
      readonly content?: string;
      /** The run's typed output (the `output` option). */
      readonly output?: unknown;
      /** The transcript: the tool calls the scorers see are read from its assistant messages. */
      readonly messages?: readonly ChatMessage[];
      readonly traces?: readonly TraceEvent[];
      readonly usage?: Usage;
      readonly costUsd?: number;
    };

/** What a task receives beside the case's input. */
export interface TaskContext<Input = unknown, Expected = unknown> {
  /** The evaluation's `signal`: pass it to the run. */
  readonly signal: AbortSignal;
  /** The case being run. */
  readonly case: EvalCase<Input, Expected>;
  /** The case's position in the dataset. */
  readonly index: number;
}

/** A tool call the agent made, its arguments parsed (the raw string when they are not JSON). */
export interface EvalToolCall {
  readonly name: string;
  readonly arguments: unknown;
}

/** What the scorers see of one case that ran: the case and what the task returned. */
export interface ScoredCase {
  readonly id: string;
  readonly input: unknown;
  readonly expected: unknown;
  readonly tags: readonly string[];
  /** The final answer (`''` when the task returned none). */
  readonly content: string;
  /** The typed output, when the task returned one. */
  readonly output?: unknown;
  /** The run's tool calls in the order made (read from `messages`: nested agents' own calls are not among them). */
  readonly toolCalls: readonly EvalToolCall[];
  readonly messages: readonly ChatMessage[];
  readonly traces: readonly TraceEvent[];
  /** Token usage; absent when the task returned none. */
  readonly usage?: Usage;
  /** What the run cost in USD; absent when the task returned none (a run has it with `budget.pricing`). */
  readonly costUsd?: number;
  /** How long the task took, in milliseconds. */
  readonly durationMs: number;
}
