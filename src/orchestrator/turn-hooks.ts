import type { ChatMessage, ToolCall } from '../model/messages.js';
import type { ModelToolDefinition, ToolChoice } from '../model/model-adapter.js';
import type { Usage } from '../model/usage.js';

/** What `prepareTurn` sees before a model call. */
export interface PrepareTurnInfo {
  /** Zero-based index of the model call about to be made. */
  readonly turn: number;
  /** The transcript so far. Do not change it: return `messages` instead. */
  readonly messages: readonly ChatMessage[];
  /** Every tool of the registry, as the model sees them. */
  readonly tools: readonly ModelToolDefinition[];
  /** Token usage of the run so far. */
  readonly usage: Usage;
  /**
   * True for the tools-off call after `maxTurns` or a budget limit (`onCutShort: 'final_answer'`);
   * on it `activeTools` and `toolChoice` are ignored.
   */
  readonly finalAnswer: boolean;
  readonly runId: string;
}

/** What `prepareTurn` may change for one model call. Every field is optional. */
export interface PrepareTurn {
  /**
   * Names of registry tools the model sees and may call on this call; a call to another tool is
   * answered with an `unknown_tool` error. @default every tool
   */
  readonly activeTools?: readonly string[];
  /** The tool choice of this call, used as given (`resetToolChoice` applies to the standing option only). */
  readonly toolChoice?: ToolChoice;
  /**
   * The messages sent on this call (to compact history, say). The transcript keeps the original
   * messages, and the model's response is appended to it, unless `replaceTranscript` is true.
   */
  readonly messages?: readonly ChatMessage[];
  /** Make `messages` the run's transcript from here on (the returned `messages` include them). @default false */
  readonly replaceTranscript?: boolean;
}

/**
 * Called before every model call, as an orchestrator option or per run. Return nothing to send the
 * call as it is. A hook that throws or rejects fails the run with its error.
 *
 * @example
 * // Force the search tool on the first call, then let the model choose.
 * const prepareTurn: PrepareTurnHook = ({ turn }) =>
 *   turn === 0 ? { toolChoice: { type: 'function', function: { name: 'search' } } } : undefined;
 */
export type PrepareTurnHook = (
  info: PrepareTurnInfo,
) => PrepareTurn | undefined | void | Promise<PrepareTurn | undefined | void>;

/** Why a tool call could not run as the model sent it. */
export interface ToolCallProblem {
  readonly code: 'unknown_tool' | 'invalid_json' | 'invalid_arguments';
  /** The error the model would receive. */
  readonly message: string;
}

/** What `repairToolCall` sees. */
export interface RepairToolCallInfo {
  /** The call as the model sent it (its id already made unique within the run). */
  readonly toolCall: ToolCall;
  readonly error: ToolCallProblem;
  /** The tools the model was offered on this call. */
  readonly tools: readonly ModelToolDefinition[];
  /** The transcript before this turn's assistant message. */
  readonly messages: readonly ChatMessage[];
  /** The run's abort signal, for a repair that calls a model. */
  readonly signal?: AbortSignal;
}

/**
 * Called for a tool call whose arguments fail to parse or validate, or whose tool is unknown,
 * before the error result is sent. Return a call to run it instead (it keeps the original id and
 * replaces the original in the transcript; traced as `tool_call_repaired`), or `null` to send the
 * error as usual. A repair that throws or returns something that is not a tool call is traced as a
 * `repair_failed` warning and the error is sent.
 *
 * @example
 * // Weak models often wrap the arguments in a string: unwrap them.
 * const repairToolCall: RepairToolCall = ({ toolCall }) => {
 *   try {
 *     const inner: unknown = JSON.parse(toolCall.function.arguments);
 *     if (typeof inner === 'string') return { ...toolCall, function: { ...toolCall.function, arguments: inner } };
 *   } catch {}
 *   return null;
 * };
 */
export type RepairToolCall = (
  info: RepairToolCallInfo,
) => ToolCall | null | undefined | Promise<ToolCall | null | undefined>;
