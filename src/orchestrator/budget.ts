import type { Usage } from '../model/usage.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { BudgetLimit } from '../tracing/trace-events.js';

/** Prices in USD per million tokens, to compute `costUsd` and enforce `maxCostUsd`. */
export interface ModelPricing {
  /** USD per million prompt tokens not served from the provider's cache. */
  readonly inputPerMillion: number;
  /** USD per million completion tokens, reasoning tokens included. */
  readonly outputPerMillion: number;
  /** USD per million prompt tokens served from the provider's cache. @default inputPerMillion */
  readonly cachedInputPerMillion?: number;
  /**
   * USD per million prompt tokens written to the provider's cache (`Usage.cacheWriteTokens`):
   * Anthropic charges 1.25x `inputPerMillion` for a 5-minute entry, 2x for a 1-hour one.
   * @default inputPerMillion
   */
  readonly cacheWriteInputPerMillion?: number;
}

/**
 * Limits on one run, checked before every model call and every tool call. When one is reached
 * the run ends with `stopReason: 'budget_exceeded'` and a `budget_exceeded` warning naming it;
 * `onCutShort` decides what happens then, as at `maxTurns`.
 */
export interface RunBudget {
  /** No model call once the run has used this many tokens (prompt plus completion, summed). */
  readonly maxTotalTokens?: number;
  /** At most this many tool calls run; a turn's calls past it are answered with a `budget_exceeded` error. */
  readonly maxToolCalls?: number;
  /** No model or tool call starts once the run has lasted this long (by the `now` clock). */
  readonly maxDurationMs?: number;
  /** No model call once the run has cost this much; needs `pricing`. */
  readonly maxCostUsd?: number;
  /** Prices to compute the cost with; with it, `RunResult.costUsd` is set. */
  readonly pricing?: ModelPricing;
}

/** Which limit was reached, its value, and how much had been used. */
export interface BudgetOverrun {
  readonly limit: BudgetLimit;
  readonly value: number;
  readonly used: number;
}

/**
 * What the usage cost, in USD. Cached prompt tokens are priced at `cachedInputPerMillion`, prompt
 * tokens written to the cache at `cacheWriteInputPerMillion`.
 */
export function costUsd(usage: Usage, pricing: ModelPricing): number {
  const cached = Math.min(usage.cachedPromptTokens, usage.promptTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - cached);
  const uncached = usage.promptTokens - cached - written;
  return (
    (uncached * pricing.inputPerMillion +
      cached * (pricing.cachedInputPerMillion ?? pricing.inputPerMillion) +
      written * (pricing.cacheWriteInputPerMillion ?? pricing.inputPerMillion) +
      usage.completionTokens * pricing.outputPerMillion) /
    1_000_000
  );
}

/** Tokens used: the providers' total, or prompt plus completion when a provider sent no total. */
export function totalTokens(usage: Usage): number {
  return Math.max(usage.totalTokens, usage.promptTokens + usage.completionTokens);
}

/**
 * The limit that stops the next model call or the next batch of tool calls: tokens, cost or time
 * spent. `maxToolCalls` is checked call by call (see `toolCallOverrun`).
 */
export function spentOverrun(budget: RunBudget, usage: Usage, elapsedMs: number): BudgetOverrun | undefined {
  const { maxTotalTokens, maxCostUsd } = budget;
  if (maxTotalTokens !== undefined) {
    const used = totalTokens(usage);
    if (used >= maxTotalTokens) return { limit: 'maxTotalTokens', value: maxTotalTokens, used };
  }
  if (maxCostUsd !== undefined && budget.pricing !== undefined) {
    const used = costUsd(usage, budget.pricing);
    if (used >= maxCostUsd) return { limit: 'maxCostUsd', value: maxCostUsd, used };
  }
  return durationOverrun(budget, elapsedMs);
}

/** `maxDurationMs`, checked again before each tool call of a batch. */
export function durationOverrun(budget: RunBudget, elapsedMs: number): BudgetOverrun | undefined {
  const { maxDurationMs } = budget;
  return maxDurationMs !== undefined && elapsedMs >= maxDurationMs
    ? { limit: 'maxDurationMs', value: maxDurationMs, used: elapsedMs }
    : undefined;
}

/** True for a limit after which a tools-off final answer call would only spend more of it. */
export function isSpendLimit(limit: BudgetLimit): boolean {
  return limit === 'maxTotalTokens' || limit === 'maxCostUsd';
}

/** The `budget_exceeded` warning's message. */
export function overrunMessage(
  overrun: BudgetOverrun,
  stopReason: 'budget_exceeded' | 'loop_detected' = 'budget_exceeded',
): string {
  return `The run reached its budget: ${overrun.limit} is ${overrun.value} and the run has used ${describeUsed(overrun)}. No further ${
    overrun.limit === 'maxToolCalls' ? 'tool calls run' : 'model or tool calls are made'
  } (stopReason '${stopReason}').`;
}

/** The tool error of a call refused by the budget. */
export function refusedCallMessage(overrun: BudgetOverrun): string {
  return `This call was not run: the run reached its budget (${overrun.limit} ${overrun.value}) and is ending.`;
}

function describeUsed(overrun: BudgetOverrun): string {
  switch (overrun.limit) {
    case 'maxTotalTokens':
      return `${overrun.used} tokens`;
    case 'maxToolCalls':
      return `${overrun.used} tool calls`;
    case 'maxDurationMs':
      return `${Math.round(overrun.used)} ms`;
    case 'maxCostUsd':
      return `$${overrun.used.toFixed(6)}`;
  }
}

/** A budget as a run uses it: the orchestrator's, with the run's limits over it. */
export function mergeBudgets(
  base: RunBudget | undefined,
  override: RunBudget | undefined,
): RunBudget | undefined {
  const budget = base === undefined ? override : override === undefined ? base : { ...base, ...override };
  if (budget?.maxCostUsd !== undefined && budget.pricing === undefined) {
    throw new InvalidArgumentError({
      argument: 'budget.maxCostUsd',
      value: budget.maxCostUsd,
      message:
        'needs budget.pricing to compute the cost, e.g. { pricing: { inputPerMillion: 0.27, outputPerMillion: 1.1 } }.',
    });
  }
  return budget;
}
