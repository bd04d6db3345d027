import { describeThrown } from '../errors/describe-value.js';
import type { AssistantMessage, ToolCall, ToolMessage } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import { errorContent } from '../tools/serialize-result.js';
import type { ToolCallOutcome, ToolCallRefusal, ToolErrorCode } from '../tools/tool-call-outcome.js';
import type { ExecuteToolCallsOptions, ToolBatchContext } from '../tools/tool-runner.js';
import { durationOverrun, refusedCallMessage } from './budget.js';
import type { Refusal } from './gate-tool-calls.js';
import { gateToolCalls, recordOverrun } from './gate-tool-calls.js';
import { blockedCallMessage, recordResult } from './loop-guard.js';
import type { TurnPlan } from './prepare-turn-step.js';
import { repairToolCalls } from './repair-tool-calls.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';
import { AbandonedTools } from './abandoned-tools.js';

/** How a turn's tool calls are run. */
export interface ExecuteToolsOptions {
  /** Calls to answer with this error instead of running them, by index (see `checkResponse`). */
  readonly rejectedCalls: ReadonlyMap<number, string> | undefined;
  readonly plan: TurnPlan;
  readonly config: RunConfig;
}

/** What a turn's tool step did. */
export interface ExecutedTools {
  /** The calls as they ran: ids made unique, repairs applied. */
  readonly toolCalls: readonly ToolCall[];
  readonly outcomes: readonly ToolCallOutcome[];
  /** Set when the loop guard or the budget ends the run after this turn. */
  readonly stop: 'loop_detected' | 'budget_exceeded' | undefined;
}

/**
 * Repairs what `repairToolCall` can, appends the assistant message, lets the loop guard and the
 * budget decide which calls run, runs them and appends one tool message per call, in call order.
 * Every call is answered, even when the run is aborted, and after an abort the step waits (up to
 * `abortGraceMs`) for tools still running.
 */
export async function executeToolsStep(
  state: RunState,
  response: ModelResponse,
  options: ExecuteToolsOptions,
): Promise<ExecutedTools> {
  const { config, plan } = options;
  const turn = state.trace.turn;
  const unique = uniqueToolCalls(response.tool_calls ?? [], turn, state.toolCallIds);
  const { originalIds } = unique;
  let toolCalls = unique.toolCalls;
  if (config.repairToolCall !== undefined) {
    toolCalls = await repairToolCalls(state, toolCalls, options.rejectedCalls, plan, config.repairToolCall);
  }
  state.messages.push(assistantMessage(response, toolCalls));
  for (let index = 0; index < toolCalls.length; index++) {
    const originalId = originalIds[index];
    state.trace.emit('tool_call', {
      toolCall: toolCalls[index]!,
      ...(originalId === undefined ? {} : { originalId }),
    });
  }
  const gated = gateToolCalls(state, toolCalls, options.rejectedCalls, config);
  const refusals = gated.refusals;
  const batchContext = {
    ...config.context,
    requestId: state.requestId,
    runId: state.runId,
    turnIndex: turn,
    ...(state.signal === undefined ? {} : { signal: state.signal }),
  } as ToolBatchContext;
  const runnable =
    refusals === undefined ? toolCalls : toolCalls.filter((_toolCall, index) => !refusals.has(index));
  const abandoned = state.signal === undefined ? undefined : new AbandonedTools();
  let ran: readonly ToolCallOutcome[];
  let runnerFailure: { readonly error: unknown } | undefined;
  try {
    ran = await config.runner.executeToolCalls(
      plan.registry,
      runnable,
      batchContext,
      batchOptions(state, config, abandoned),
    );
  } catch (error) {
    // Only a custom runner can throw; its calls are still answered before the run fails with its error.
    runnerFailure = { error };
    ran = [];
  }
  const outcomes = refusals === undefined ? ran : mergeRefused(toolCalls, ran, refusals, state);
  // Copied only when a call has to be filled in, to keep the common turn free of allocations.
  let filled: ToolCallOutcome[] | undefined;
  for (let index = 0; index < toolCalls.length; index++) {
    const toolCall = toolCalls[index]!;
    let outcome = outcomes[index];
    if (outcome === undefined) {
      // A custom runner that returns too few outcomes, or throws, must still not leave a call unanswered.
      outcome = missingOutcome(toolCall, runnerFailure);
      filled ??= outcomes.slice(0, index) as ToolCallOutcome[];
    }
    if (filled !== undefined) filled[index] = outcome;
    const message: ToolMessage = { role: 'tool', tool_call_id: toolCall.id, content: outcome.content };
    state.messages.push(message);
    state.trace.emit('tool_result', {
      toolCallId: toolCall.id,
      name: outcome.name,
      ...(outcome.error === undefined ? { result: outcome.result } : { error: outcome.error }),
      ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
      content: outcome.content,
      contentLength: outcome.content.length,
      durationMs: outcome.durationMs,
    });
  }
  const final = filled ?? (outcomes as readonly ToolCallOutcome[]);
  state.toolCallsMade += countRun(final, refusals);
  const stop = afterGuard(state, config, toolCalls, final, refusals, gated.streakContentIndex) ?? gated.stop;
  if (abandoned !== undefined && state.signal?.aborted) await abandoned.settle(state, config.abortGraceMs);
  if (runnerFailure !== undefined) throw runnerFailure.error;
  return { toolCalls, outcomes: final, stop };
}

/** The runner's hooks this run needs: the budget's clock before each call, and the calls left running. */
function batchOptions(
  state: RunState,
  config: RunConfig,
  abandoned: AbandonedTools | undefined,
): ExecuteToolCallsOptions {
  const budget = config.budget;
  const beforeCall =
    budget?.maxDurationMs === undefined
      ? undefined
      : (): ToolCallRefusal | undefined => {
          const overrun = durationOverrun(budget, config.now() - state.startedAt);
          if (overrun === undefined) return undefined;
          recordOverrun(state, overrun);
          return { errorCode: 'budget_exceeded', error: refusedCallMessage(overrun) };
        };
  return {
    concurrency: config.concurrency,
    ...(beforeCall === undefined ? {} : { beforeCall }),
    ...(abandoned === undefined ? {} : { onAbandoned: abandoned.track }),
  };
}

/** Tool calls handed to the runner that it did not refuse for the budget. */
function countRun(
  outcomes: readonly ToolCallOutcome[],
  refusals: ReadonlyMap<number, Refusal> | undefined,
): number {
  let count = 0;
  for (let index = 0; index < outcomes.length; index++) {
    if (refusals?.has(index) || outcomes[index]!.errorCode === 'budget_exceeded') continue;
    count++;
  }
  return count;
}

/**
 * The loop guard's bookkeeping once the results are in: the result a later blocked repeat will
 * quote, and each tool's run of errors. Returns `'loop_detected'` when `action: 'stop'` ends the run.
 */
function afterGuard(
  state: RunState,
  config: RunConfig,
  toolCalls: readonly ToolCall[],
  outcomes: readonly ToolCallOutcome[],
  refusals: ReadonlyMap<number, Refusal> | undefined,
  streakContentIndex: number | undefined,
): 'loop_detected' | undefined {
  const guard = config.loopGuard;
  const guardState = state.loopGuard;
  if (guard === undefined || guardState === undefined) return undefined;
  if (streakContentIndex !== undefined) guardState.lastContent = outcomes[streakContentIndex]!.content;
  let stop: 'loop_detected' | undefined;
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!;
    const code = outcome.errorCode;
    // Refusals, aborts and the budget are not the tool's failures.
    if (refusals?.has(index) || code === 'aborted' || code === 'budget_exceeded') continue;
    const name = toolCalls[index]!.function.name;
    const errors = recordResult(guardState, guard, name, outcome.error !== undefined);
    if (errors === undefined) continue;
    state.trace.emit('warning', {
      code: 'repeated_tool_errors',
      message: `Tool "${name}" returned an error ${errors} times in a row (last: ${code ?? 'error'}).`,
      toolName: name,
    });
    if (guard.action === 'stop' && stop === undefined) {
      state.trace.emit('warning', {
        code: 'loop_detected',
        message: `Tool "${name}" failed ${errors} times in a row; the run ends (loopGuard action 'stop').`,
        toolName: name,
      });
      state.loopDetected = true;
      stop = 'loop_detected';
    }
  }
  return stop;
}

/** The assistant message exactly as received, but with the unique ids the tool messages answer. */
export function assistantMessage(response: ModelResponse, toolCalls?: readonly ToolCall[]): AssistantMessage {
  return {
    role: 'assistant',
    content: response.content ?? null,
    ...(toolCalls === undefined || toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    ...(response.reasoning_content === undefined ? {} : { reasoning_content: response.reasoning_content }),
  };
}

/**
 * Makes ids unique within the run (some local servers send `call_0` every turn, or empty ids);
 * `originalIds[i]` is set where an id changed.
 */
function uniqueToolCalls(
  toolCalls: readonly ToolCall[],
  turn: number,
  seen: Set<string>,
): { toolCalls: readonly ToolCall[]; originalIds: (string | undefined)[] } {
  const originalIds: (string | undefined)[] = [];
  let changed = false;
  const result = toolCalls.map((toolCall, index) => {
    const id = toolCall.id;
    if (id && !seen.has(id)) {
      seen.add(id);
      return toolCall;
    }
    const base = id || `call_${turn}_${index}`;
    let unique = base;
    for (
      let suffix = 2;
      seen.has(unique) || (unique !== id && toolCalls.some((other) => other.id === unique));
      suffix++
    ) {
      unique = `${base}_${suffix}`;
    }
    seen.add(unique);
    // A null id (outside the contract, let through by checkResponse) is no id to report.
    if (typeof id === 'string') originalIds[index] = id;
    changed = true;
    return { ...toolCall, id: unique };
  });
  return { toolCalls: changed ? result : toolCalls, originalIds };
}

/** Puts the refused calls' error outcomes back among the outcomes of the calls that ran, in call order. */
function mergeRefused(
  toolCalls: readonly ToolCall[],
  ran: readonly ToolCallOutcome[],
  refusals: ReadonlyMap<number, Refusal>,
  state: RunState,
): (ToolCallOutcome | undefined)[] {
  let next = 0;
  const merged: (ToolCallOutcome | undefined)[] = [];
  for (let index = 0; index < toolCalls.length; index++) {
    const toolCall = toolCalls[index]!;
    const refusal = refusals.get(index);
    if (refusal === undefined) {
      merged.push(ran[next++]);
      continue;
    }
    const blocked = refusal.blocked;
    const error =
      blocked === undefined
        ? refusal.error
        : blockedCallMessage(
            toolCall.function.name,
            blocked.streak,
            blocked.quotes >= 0 ? merged[blocked.quotes]?.content : state.loopGuard?.lastContent,
          );
    merged.push(errorOutcome(toolCall, refusal.errorCode, error));
  }
  return merged;
}

function missingOutcome(toolCall: ToolCall, runnerFailure?: { readonly error: unknown }): ToolCallOutcome {
  const error =
    runnerFailure === undefined
      ? 'The tool runner returned no result for this call.'
      : `The tool runner failed before answering this call: ${describeThrown(runnerFailure.error)}`;
  return errorOutcome(toolCall, 'tool_error', error);
}

function errorOutcome(toolCall: ToolCall, errorCode: ToolErrorCode, error: string): ToolCallOutcome {
  return {
    toolCallId: toolCall.id,
    name: toolCall.function.name,
    error,
    errorCode,
    content: errorContent(error),
    durationMs: 0,
  };
}
