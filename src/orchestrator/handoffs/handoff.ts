import type { ChatMessage } from '../../model/messages.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { ToolRegistry } from '../../tools/define-tool.js';

/**
 * An agent a run can hand the conversation to: a `ToolOrchestrator`, whatever its context and
 * output types (declared by the fields it has, so this module needs no import of the class).
 */
export interface HandoffAgent {
  readonly name: string | undefined;
  readonly adapter: ModelAdapter;
  readonly toolRegistry: ToolRegistry;
}

/**
 * Chooses the history the agent handed to receives: called with the transcript without its
 * system message (the transfer call and its result last), it returns the messages the run goes on
 * with. The agent's `instructions` come first unless the returned messages start with a system message.
 *
 * @example
 * // The target sees the conversation without any tool calls or results.
 * const inputFilter: HandoffInputFilter = (history) =>
 *   history.filter((message) => message.role === 'user' || (message.role === 'assistant' && !message.tool_calls));
 */
export type HandoffInputFilter = (
  history: readonly ChatMessage[],
) => readonly ChatMessage[] | Promise<readonly ChatMessage[]>;

/** What `handoff()` takes beside the agent. */
export interface HandoffOptions {
  /**
   * The name of the tool the model calls to hand off: letters, digits, `_` and `-`.
   * @default `transfer_to_<name>`, the agent's `name`
   */
  readonly toolName?: string;
  /** The tool's description, for the model. @default the agent's `description`, else `Hands the conversation to the <name> agent.` */
  readonly description?: string;
  /** The history the agent receives (see {@link HandoffInputFilter}). @default the whole transcript */
  readonly inputFilter?: HandoffInputFilter;
}

/** A handoff with options, as `handoff()` makes it: an entry of the `handoffs` option. */
export interface Handoff extends HandoffOptions {
  readonly type: 'handoff';
  readonly agent: HandoffAgent;
}

/** An entry of the `handoffs` option: an orchestrator (its defaults), or a `handoff()` with options. */
export type HandoffEntry = HandoffAgent | Handoff;

/**
 * The `handoffs` option: a list, or a function that returns it, read at the agent's first run (so
 * two agents can hand off to each other, though one of them is made first).
 */
export type HandoffsOption = readonly HandoffEntry[] | (() => readonly HandoffEntry[]);

/**
 * A handoff to `agent` with options: a tool name or description of its own, or a filter of the
 * history the agent receives. An orchestrator in the `handoffs` list is the same as `handoff(it)`.
 *
 * @example
 * const triage = new ToolOrchestrator(adapter, {}, {
 *   name: 'triage',
 *   handoffs: () => [handoff(billing, { description: 'Questions about invoices and payments' })],
 * });
 */
export function handoff(agent: HandoffAgent, options: HandoffOptions = {}): Handoff {
  return { ...options, type: 'handoff', agent };
}
