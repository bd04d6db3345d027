import type { RunFingerprint } from '../../durable/run-fingerprint.js';
import type { JsonValue } from '../../durable/run-state.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatMessage, ToolCall } from '../../model/messages.js';
import type { ModelResponse } from '../../model/model-adapter.js';
import type { ToolCallOutcome } from '../../tools/tool-call-outcome.js';
import type { TraceDispatcher } from '../../tracing/trace-dispatcher.js';
import type { RunOptions } from '../orchestrator-options.js';
import { raceAbort } from '../race-abort.js';
import type { RunConfig } from '../run-config.js';
import type { AgentProfile, ResolvedHandoff } from './agent-profile.js';

/** What a handoff reads and changes of the run's state (a `RunState`). */
export interface HandoffRunState {
  messages: ChatMessage[];
  toolChoiceReset: boolean;
  readonly trace: TraceDispatcher;
  readonly signal: AbortSignal | undefined;
}

/** What the turn's tool step did (a `ToolStepOutcome`). */
export type AnsweredTurn =
  | {
      readonly type: 'answered';
      readonly toolCalls: readonly ToolCall[];
      readonly outcomes: readonly ToolCallOutcome[];
    }
  | { readonly type: 'awaiting_approval' };

/**
 * The agent a run is with, and the handoffs between agents during the run. A run whose starting
 * agent has `handoffs` has one (`state.handoffs`); other runs have none and pay nothing for it.
 *
 * What changes on a handoff: the adapter, the tools (with the new agent's transfer tools),
 * `instructions`, `toolChoice`, `resetToolChoice`, `prepareTurn`, `repairToolCall`, `stopWhen`,
 * `toolConcurrency`, `finalAnswerPrompt`, `output` and `guardrails`, each the run's own option over
 * the new agent's, as over the starting agent's. What stays the run's: its id, signal, listeners,
 * checkpoint store, `context`, `maxTurns`, `budget` and usage, `loopGuard`, `contextWindow`,
 * `onCutShort`, `abortGraceMs` and `maxTraceChars`.
 */
export class HandoffRun {
  #agent: AgentProfile;
  /** The configuration of the agent the run is with. */
  config: RunConfig;
  readonly #start: AgentProfile;
  readonly #startConfig: RunConfig;
  readonly #runOptions: RunOptions<object, unknown>;
  readonly #streaming: boolean;

  constructor(
    start: AgentProfile,
    startConfig: RunConfig,
    runOptions: RunOptions<object, unknown>,
    streaming: boolean,
  ) {
    this.#agent = this.#start = start;
    this.config = this.#startConfig = startConfig;
    this.#runOptions = runOptions;
    this.#streaming = streaming;
  }

  /** The name of the agent the run is with. */
  get agent(): string {
    return this.#agent.name!;
  }

  /** The tool set and model of the agent the run is with: what a checkpoint saves and a resume checks. */
  get fingerprint(): RunFingerprint {
    return this.#agent.fingerprint;
  }

  /** What a checkpoint keeps: `strategyState.handoff`. */
  save(): JsonValue {
    return { agent: this.agent };
  }

  /** Goes on with `agent` (a resume of a run that was handed to it). */
  switchTo(agent: AgentProfile): void {
    this.#agent = agent;
    this.config = this.#configOf(agent);
  }

  /**
   * The calls to answer with an error rather than run: `rejected`, plus every transfer call of the
   * response after the first, since a turn hands the conversation to one agent only.
   */
  rejectExtraTransfers(
    response: ModelResponse,
    rejected: ReadonlyMap<number, string> | undefined,
  ): ReadonlyMap<number, string> | undefined {
    const handoffs = this.#agent.handoffs()?.byToolName;
    const toolCalls = response.tool_calls;
    if (handoffs === undefined || toolCalls === undefined) return rejected;
    let first: ResolvedHandoff | undefined;
    let result = rejected;
    for (let index = 0; index < toolCalls.length; index++) {
      const target = handoffs.get(toolCalls[index]!.function.name);
      if (target === undefined || rejected?.has(index)) continue;
      if (first === undefined) {
        first = target;
        continue;
      }
      if (result === rejected) result = new Map(rejected);
      (result as Map<number, string>).set(
        index,
        `Not transferred: a turn hands the conversation to one agent only, and this one already calls ${first.toolName} (the ${first.agent.name} agent). Only the first transfer call of a turn is made.`,
      );
    }
    return result;
  }

  /**
   * After a turn's calls were answered: when one was a transfer that succeeded, the run goes on
   * with its agent. The transcript becomes the agent's `instructions` (replacing the system
   * message) and the history, or what the handoff's `inputFilter` returned from it.
   *
   * @throws {InvalidArgumentError} when the `inputFilter` returns something other than messages.
   */
  async afterTurn(state: HandoffRunState, step: AnsweredTurn): Promise<RunConfig> {
    if (step.type !== 'answered') return this.config;
    const handoffs = this.#agent.handoffs()?.byToolName;
    if (handoffs === undefined) return this.config;
    let index = -1;
    let target: ResolvedHandoff | undefined;
    while (target === undefined && ++index < step.toolCalls.length) {
      const found = handoffs.get(step.toolCalls[index]!.function.name);
      if (found !== undefined && step.outcomes[index]?.error === undefined) target = found;
    }
    if (target === undefined) return this.config;
    const messages = state.messages;
    const history = messages[0]?.role === 'system' ? messages.slice(1) : messages.slice();
    const received =
      target.inputFilter === undefined
        ? history
        : checkFiltered(target, await raceAbort(Promise.resolve(target.inputFilter(history)), state.signal));
    const from = this.agent;
    this.switchTo(target.agent);
    const instructions = target.agent.options.instructions;
    state.messages =
      instructions === undefined || received[0]?.role === 'system'
        ? [...received]
        : [{ role: 'system', content: instructions }, ...received];
    // The new agent's standing toolChoice applies afresh.
    state.toolChoiceReset = false;
    state.trace.emit('handoff', { from, to: this.agent, toolCallId: step.toolCalls[index]!.id });
    return this.config;
  }

  /** An agent's configuration in this run: its own, with the run-wide settings of the run. */
  #configOf(agent: AgentProfile): RunConfig {
    if (agent === this.#start) return this.#startConfig;
    const own = agent.config(this.#runOptions, this.#streaming);
    const start = this.#startConfig;
    const choice = own.toolChoice;
    return {
      ...own,
      get tools() {
        return own.tools;
      },
      // A run's toolChoice that names a tool holds only for agents that have it.
      toolChoice:
        typeof choice === 'object' && !Object.hasOwn(own.registry, choice.function.name)
          ? agent.options.toolChoice
          : choice,
      context: start.context,
      maxTurns: start.maxTurns,
      budget: start.budget,
      loopGuard: start.loopGuard,
      contextWindow: start.contextWindow,
      onCutShort: start.onCutShort,
      abortGraceMs: start.abortGraceMs,
      maxTraceChars: start.maxTraceChars,
      now: start.now,
    };
  }
}

/** What a run starts (or resumes) with: the configuration of its agent, and its `HandoffRun`. */
export interface RunAgent {
  readonly config: RunConfig;
  readonly handoffs: HandoffRun | undefined;
  /** What a resume checks the saved run against: the tools and model of the agent it goes on with. */
  readonly fingerprint: RunFingerprint;
}

/**
 * The agent a run of `start` is with: `start` for a new run; for a resumed one, the agent the saved
 * run had been handed to (`strategyState.handoff`), found through the handoffs from `start`.
 *
 * @throws {InvalidArgumentError} when the saved agent is no longer reachable from `start`.
 */
export function runAgent(
  start: AgentProfile,
  runOptions: RunOptions<object, unknown>,
  streaming: boolean,
  saved?: { readonly strategyState: { readonly [feature: string]: JsonValue } },
): RunAgent {
  const config = start.config(runOptions, streaming);
  if (start.handoffs() === undefined) return { config, handoffs: undefined, fingerprint: start.fingerprint };
  const handoffs = new HandoffRun(start, config, runOptions, streaming);
  const savedAgent = (saved?.strategyState['handoff'] as { agent?: unknown } | undefined)?.agent;
  if (typeof savedAgent === 'string' && savedAgent !== start.name) {
    handoffs.switchTo(findAgent(start, savedAgent));
  }
  return { config: handoffs.config, handoffs, fingerprint: handoffs.fingerprint };
}

/**
 * The agent named `name` among those `start`'s handoffs reach, directly or through others.
 *
 * @throws {InvalidArgumentError} when none has that name, or two different agents have it.
 */
function findAgent(start: AgentProfile, name: string): AgentProfile {
  const seen = new Set<AgentProfile>([start]);
  const queue = [start];
  let found: AgentProfile | undefined;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const { agent } of next.handoffs()?.byToolName.values() ?? []) {
      if (seen.has(agent)) continue;
      seen.add(agent);
      queue.push(agent);
      if (agent.name !== name) continue;
      if (found !== undefined) {
        throw new InvalidArgumentError({
          argument: 'runIdOrState',
          value: name,
          message: `is the agent the saved run had been handed to, and two different agents reached from "${start.name}" have that name: give each agent of a handoff graph its own name.`,
        });
      }
      found = agent;
    }
  }
  if (found !== undefined) return found;
  throw new InvalidArgumentError({
    argument: 'runIdOrState',
    value: name,
    message: `is the agent the saved run had been handed to, and no handoff from "${start.name}" reaches an agent of that name. Resume it with the orchestrator whose handoffs lead to that agent.`,
  });
}

/** The filter's messages, checked: an array of messages. */
function checkFiltered(target: ResolvedHandoff, value: unknown): readonly ChatMessage[] {
  if (
    Array.isArray(value) &&
    value.every((message) => typeof (message as { role?: unknown } | null)?.role === 'string')
  ) {
    return value as readonly ChatMessage[];
  }
  throw new InvalidArgumentError({
    argument: `the inputFilter of ${target.toolName}`,
    value,
    message: 'must return an array of chat messages (the history the agent receives).',
  });
}
