import { fingerprintRun } from '../../durable/run-fingerprint.js';
import type { RunFingerprint } from '../../durable/run-fingerprint.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool, ToolRegistry } from '../../tools/define-tool.js';
import { ToolRunner } from '../../tools/tool-runner.js';
import { resolveContextWindow } from '../context-window/resolve-context-window.js';
import type { RunOptions, ToolOrchestratorOptions } from '../orchestrator-options.js';
import { resolveOutput } from '../output/output-options.js';
import { resolveRunConfig } from '../run-config.js';
import type { RunConfig, RunConfigSources } from '../run-config.js';
import { ToolDefinitionsCache } from '../tool-definitions-cache.js';
import type { Handoff, HandoffAgent, HandoffEntry, HandoffInputFilter } from './handoff.js';

/** What every run of an orchestrator resolves its configuration from, but the run's own options. */
export type AgentSources = Omit<RunConfigSources<object>, 'runOptions' | 'streaming'>;

/** One handoff of an agent, resolved: the tool the model calls and the agent it hands to. */
export interface ResolvedHandoff {
  readonly toolName: string;
  readonly agent: AgentProfile;
  readonly inputFilter: HandoffInputFilter | undefined;
}

/** What a handoff adds to an agent's runs: its handoffs by tool name, and their tools. */
export interface AgentHandoffs {
  readonly byToolName: ReadonlyMap<string, ResolvedHandoff>;
  readonly tools: ToolRegistry;
}

const namePattern = /^[A-Za-z0-9_-]{1,52}$/;
const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** A transfer tool takes no arguments; extra ones are ignored rather than failing the transfer. */
const noParameters = { type: 'object', properties: {} };
const profiles = new WeakMap<object, AgentProfile>();

/** The profile of an orchestrator, `undefined` for anything else. */
export function profileOf(agent: unknown): AgentProfile | undefined {
  return typeof agent === 'object' && agent !== null ? profiles.get(agent) : undefined;
}

/**
 * What one orchestrator brings to a run: the sources of its runs' configuration, its name,
 * instructions and fingerprint, and its handoffs (resolved at the first run that needs them).
 */
export class AgentProfile {
  readonly name: string | undefined;
  readonly sources: AgentSources;
  /** The tool set and model of this agent's runs, as saved in their checkpoints. */
  readonly fingerprint: RunFingerprint;
  readonly options: ToolOrchestratorOptions<object, unknown>;
  #handoffs: AgentHandoffs | undefined;

  /** @throws {InvalidArgumentError} for a bad `name`, or `handoffs` without a `name`. */
  constructor(
    orchestrator: object,
    adapter: ModelAdapter,
    registry: ToolRegistry,
    options: ToolOrchestratorOptions<object, unknown>,
    now: () => number,
  ) {
    const { name, handoffs } = options;
    if (name !== undefined && (typeof name !== 'string' || !namePattern.test(name))) {
      throw new InvalidArgumentError({
        argument: 'name',
        value: name,
        message:
          'must be 1 to 52 letters, digits, "_" or "-" (it names the agent\'s transfer_to_<name> tool), e.g. "billing".',
      });
    }
    if (handoffs !== undefined && name === undefined) {
      throw new InvalidArgumentError({
        argument: 'name',
        value: name,
        message:
          'is required for an orchestrator with handoffs: it names the agent in handoff events and result.agent. Add a name option, e.g. { name: "triage" }.',
      });
    }
    this.name = name;
    this.options = options;
    const maxResultChars = options.maxToolResultChars;
    const stopWhen = options.stopWhen;
    this.sources = {
      adapter,
      registry,
      definitions: new ToolDefinitionsCache(registry),
      runner:
        options.toolRunner ??
        new ToolRunner(registry, { ...(maxResultChars === undefined ? {} : { maxResultChars }), now }),
      options,
      stopConditions: stopWhen === undefined ? [] : typeof stopWhen === 'function' ? [stopWhen] : stopWhen,
      contextWindow: resolveContextWindow('contextWindow', options.contextWindow, adapter),
      output: resolveOutput('output', options.output, adapter, registry),
      now,
    };
    this.fingerprint = fingerprintRun({ tools: registry, model: adapter.model });
    profiles.set(orchestrator, this);
  }

  /**
   * The agent's handoffs, resolved once; `undefined` without the `handoffs` option.
   *
   * @throws {InvalidArgumentError} for an entry that is not an orchestrator or a `handoff()`, or a name that clashes.
   */
  handoffs(): AgentHandoffs | undefined {
    if (this.options.handoffs === undefined) return undefined;
    return (this.#handoffs ??= resolveHandoffs(this));
  }

  /** This agent's configuration for a run: with `handoffs`, its registry holds their transfer tools. */
  config(runOptions: RunOptions<object, unknown>, streaming: boolean): RunConfig {
    const handoffs = this.handoffs();
    if (handoffs === undefined) return resolveRunConfig({ ...this.sources, runOptions, streaming });
    // Made per run: tools added to the registry between runs are offered.
    const registry = { ...this.sources.registry, ...handoffs.tools };
    const definitions = new ToolDefinitionsCache(registry);
    return resolveRunConfig({ ...this.sources, registry, definitions, runOptions, streaming });
  }
}

/**
 * Reads an agent's `handoffs` option (calling it when it is a function) and makes one transfer
 * tool per entry. The tool's result tells the model which agent now answers; the loop does the rest.
 *
 * @throws {InvalidArgumentError} for a list that is not an array, an entry that is neither an
 * orchestrator nor a `handoff()`, a target without a `name`, or a tool name that is bad or taken.
 */
function resolveHandoffs(source: AgentProfile): AgentHandoffs {
  const option = source.options.handoffs;
  const entries: unknown = typeof option === 'function' ? option() : option;
  if (!Array.isArray(entries)) {
    throw new InvalidArgumentError({
      argument: 'handoffs',
      value: entries,
      message: 'must be an array of orchestrators or handoff() entries, or a function that returns one.',
    });
  }
  const byToolName = new Map<string, ResolvedHandoff>();
  const tools: Record<string, Tool> = {};
  entries.forEach((entry: HandoffEntry, index) => {
    const argument = `handoffs[${index}]`;
    const options: Partial<Handoff> =
      profileOf(entry) === undefined
        ? ((entry ?? {}) as Partial<Handoff>)
        : { type: 'handoff', agent: entry as HandoffAgent };
    const agent = options.type === 'handoff' ? profileOf(options.agent) : undefined;
    if (agent === undefined) {
      throw new InvalidArgumentError({
        argument,
        value: entry,
        message: 'must be a ToolOrchestrator or handoff(orchestrator, options).',
      });
    }
    if (agent.name === undefined) {
      throw new InvalidArgumentError({
        argument,
        value: entry,
        message: `is an orchestrator without a name, which a handoff needs (its tool is transfer_to_<name>). Give it a name option, e.g. { name: "billing" }.`,
      });
    }
    const toolName = options.toolName ?? `transfer_to_${agent.name}`;
    if (typeof toolName !== 'string' || !toolNamePattern.test(toolName)) {
      throw new InvalidArgumentError({
        argument: `${argument}.toolName`,
        value: toolName,
        message: 'must be 1 to 64 letters, digits, "_" or "-".',
      });
    }
    if (byToolName.has(toolName) || Object.hasOwn(source.sources.registry, toolName)) {
      throw new InvalidArgumentError({
        argument: `${argument}.toolName`,
        value: toolName,
        message: `is already the name of ${byToolName.has(toolName) ? 'another handoff' : 'a tool'} of the agent "${source.name}": give this handoff its own toolName.`,
      });
    }
    if (options.inputFilter !== undefined && typeof options.inputFilter !== 'function') {
      throw new InvalidArgumentError({
        argument: `${argument}.inputFilter`,
        value: options.inputFilter,
        message: 'must be a function from the history to the messages the agent receives.',
      });
    }
    byToolName.set(toolName, { toolName, agent, inputFilter: options.inputFilter });
    tools[toolName] = transferTool(toolName, agent.name, options.description ?? agent.options.description);
  });
  return { byToolName, tools: tools as ToolRegistry };
}

function transferTool(toolName: string, agentName: string, description: string | undefined): Tool {
  return defineTool({
    name: toolName,
    description: description ?? `Hands the conversation to the ${agentName} agent.`,
    parameters: noParameters,
    execute: () => ({ assistant: agentName }),
  }) as Tool;
}
