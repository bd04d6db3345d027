import type { ModelAdapter, ModelToolDefinition, ToolChoice } from '../model/model-adapter.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import type { RunBudget } from './budget.js';
import type { ResolvedContextWindow } from './context-window/context-window-options.js';
import type { ResolvedLoopGuard } from './loop-guard.js';
import type { OnCutShort, RunOptions, ToolOrchestratorOptions } from './orchestrator-options.js';
import { mergeBudgets } from './budget.js';
import { resolveContextWindow } from './context-window/resolve-context-window.js';
import { resolveLoopGuard } from './loop-guard.js';
import type { ToolDefinitionsCache } from './tool-definitions-cache.js';
import type { StopCondition } from './stop-conditions.js';
import type { PrepareTurnHook, RepairToolCall } from './turn-hooks.js';
import { resolveOutput } from './output/output-options.js';
import type { ResolvedOutput } from './output/output-options.js';
import { resolveGuardrails } from './guardrails/resolve-guardrails.js';
import type { ResolvedGuardrails } from './guardrails/resolve-guardrails.js';

/** How one run behaves: the orchestrator's options with the run's own applied, resolved once. */
export interface RunConfig {
  /** The `name` of the agent this configuration is of. */
  readonly agent: string | undefined;
  readonly adapter: ModelAdapter;
  readonly registry: ToolRegistry;
  readonly tools: readonly ModelToolDefinition[];
  readonly runner: ToolRunner;
  /** The caller's context handed to tools. */
  readonly context: object;
  readonly maxTurns: number;
  readonly onCutShort: OnCutShort;
  readonly finalAnswerPrompt: string | undefined;
  /** Read the adapter's stream (deltas become events). */
  readonly stream: boolean;
  readonly concurrency: number;
  readonly stopConditions: readonly StopCondition[];
  readonly prepareTurn: PrepareTurnHook | undefined;
  readonly toolChoice: ToolChoice | undefined;
  readonly resetToolChoice: boolean;
  readonly repairToolCall: RepairToolCall | undefined;
  readonly loopGuard: ResolvedLoopGuard | undefined;
  readonly budget: RunBudget | undefined;
  readonly contextWindow: ResolvedContextWindow | undefined;
  readonly abortGraceMs: number;
  /** The most characters of one text a `tool_result` event carries. */
  readonly maxTraceChars: number;
  /** Where the default runner cuts tool message content; `Infinity` with a custom runner. */
  readonly toolResultChars: number;
  /** Some tool of the registry has `needsApproval`: calls are asked about before a turn runs. */
  readonly approvals: boolean;
  /** The typed output the run asks for; `undefined` without one. */
  readonly output: ResolvedOutput | undefined;
  /** The orchestrator's guardrails, then the run's; `undefined` when there are none. */
  readonly guardrails: ResolvedGuardrails | undefined;
  readonly now: () => number;
}

/** What {@link resolveRunConfig} resolves a run's configuration from. */
export interface RunConfigSources<Context extends object> {
  readonly adapter: ModelAdapter;
  readonly registry: ToolRegistry;
  readonly definitions: ToolDefinitionsCache;
  readonly runner: ToolRunner;
  /** The orchestrator's options. */
  readonly options: ToolOrchestratorOptions<Context, unknown>;
  /** The run's own options, over the orchestrator's. */
  readonly runOptions: RunOptions<Context, unknown>;
  /** The run is a `stream()`: the adapter's stream is read whenever it has one. */
  readonly streaming: boolean;
  readonly stopConditions: readonly StopCondition[];
  /** The orchestrator's `contextWindow`, resolved once. */
  readonly contextWindow: ResolvedContextWindow | undefined;
  /** The orchestrator's `output`, resolved once. */
  readonly output: ResolvedOutput | undefined;
  readonly now: () => number;
}

/** The configuration of one run: the run's options over the orchestrator's, with their defaults. */
export function resolveRunConfig<Context extends object>(sources: RunConfigSources<Context>): RunConfig {
  const { options, runOptions, adapter, definitions } = sources;
  return {
    agent: options.name,
    adapter,
    registry: sources.registry,
    // Read before every model call: a getter, so a registry changed mid-run is seen next turn.
    get tools() {
      return definitions.current();
    },
    runner: sources.runner,
    context: runOptions.context ?? options.context ?? {},
    maxTurns: runOptions.maxTurns ?? options.maxTurns ?? 10,
    onCutShort: options.onCutShort ?? 'return',
    finalAnswerPrompt: options.finalAnswerPrompt,
    stream: sources.streaming ? typeof adapter.stream === 'function' : (options.stream ?? false),
    concurrency: options.toolConcurrency ?? 1,
    stopConditions: sources.stopConditions,
    prepareTurn: runOptions.prepareTurn ?? options.prepareTurn,
    toolChoice: runOptions.toolChoice ?? options.toolChoice,
    resetToolChoice: options.resetToolChoice ?? true,
    repairToolCall: options.repairToolCall,
    loopGuard: resolveLoopGuard(runOptions.loopGuard ?? options.loopGuard),
    budget: mergeBudgets(options.budget, runOptions.budget),
    contextWindow:
      runOptions.contextWindow === undefined
        ? sources.contextWindow
        : resolveContextWindow('runOptions.contextWindow', runOptions.contextWindow, adapter),
    abortGraceMs: options.abortGraceMs ?? 2_000,
    maxTraceChars: options.maxTraceChars ?? 200_000,
    toolResultChars:
      options.toolRunner === undefined ? (options.maxToolResultChars ?? 100_000) : Number.POSITIVE_INFINITY,
    approvals: Object.values(sources.registry).some(
      (tool) => tool.needsApproval !== undefined && tool.needsApproval !== false,
    ),
    output:
      runOptions.output === undefined
        ? sources.output
        : resolveOutput('runOptions.output', runOptions.output, adapter, sources.registry),
    guardrails: resolveGuardrails(options.guardrails, runOptions.guardrails),
    now: sources.now,
  };
}
