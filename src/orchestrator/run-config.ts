import type { ModelAdapter, ModelToolDefinition, ToolChoice } from '../model/model-adapter.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import type { RunBudget } from './budget.js';
import type { ResolvedContextWindow } from './context-window/context-window-options.js';
import type { ResolvedLoopGuard } from './loop-guard.js';
import type { OnCutShort } from './orchestrator-options.js';
import type { StopCondition } from './stop-conditions.js';
import type { PrepareTurnHook, RepairToolCall } from './turn-hooks.js';

/** How one run behaves: the orchestrator's options with the run's own applied, resolved once. */
export interface RunConfig {
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
  readonly now: () => number;
}
