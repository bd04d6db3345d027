import type { MessageContent } from '../model/messages.js';

/** Why a tool call failed, as the runner classifies it. */
export type ToolErrorCode =
  | 'unknown_tool'
  | 'invalid_json'
  | 'invalid_arguments'
  | 'tool_error'
  | 'timeout'
  | 'aborted'
  | 'unserializable_result'
  /** The call itself was malformed (arguments not a string, no function name): the adapter broke its contract. */
  | 'invalid_tool_call'
  /** The loop guard did not run it: the same call as the previous ones (see `loopGuard`). */
  | 'repeated_tool_call'
  /** Not run because the loop guard ended the run. */
  | 'loop_detected'
  /** Not run because the run reached a `budget` limit. */
  | 'budget_exceeded'
  /** A person denied the call (`needsApproval`); the reason, when given, is in the error. */
  | 'approval_denied'
  /** Not run, or its result withheld, because a guardrail tripped and ended the run (see `guardrails`). */
  | 'guardrail_tripped';

/** Why a call is answered with an error instead of being run (see `ExecuteToolCallsOptions.beforeCall`). */
export interface ToolCallRefusal {
  readonly errorCode: ToolErrorCode;
  /** The message the model receives. */
  readonly error: string;
}

/** What one tool call produced, in call order. Exactly one of `result` and `error` is meaningful. */
export interface ToolCallOutcome {
  readonly toolCallId: string;
  readonly name: string;
  /** The tool's return value, when it succeeded. */
  readonly result?: unknown;
  /** A message the model can act on, when it failed. */
  readonly error?: string;
  readonly errorCode?: ToolErrorCode;
  /**
   * The tool message content sent to the model: the string result, JSON, `{"error": "..."}`, or
   * the parts of a result made with `toolContent`.
   */
  readonly content: MessageContent;
  readonly durationMs: number;
}
