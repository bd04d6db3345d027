import { describeThrown } from '../errors/describe-value.js';
import type { AssistantMessage, ToolCall, ToolMessage } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import { errorContent } from '../tools/serialize-result.js';
import type { ToolCallOutcome, ToolErrorCode } from '../tools/tool-call-outcome.js';
import type { ToolBatchContext, ToolRunner } from '../tools/tool-runner.js';
import type { RunState } from './run-state.js';

/** How a turn's tool calls are run. */
export interface ExecuteToolsOptions {
  /** Calls to answer with this error instead of running them, by index (see `checkResponse`). */
  readonly rejectedCalls: ReadonlyMap<number, string> | undefined;
  readonly registry: ToolRegistry;
  readonly runner: ToolRunner;
  readonly context: object;
  readonly concurrency: number;
}

/**
 * Appends the assistant message, runs its tool calls and appends one tool message per call,
 * in call order. Every call is answered, even when the run is aborted.
 */
export async function executeToolsStep(
  state: RunState,
  response: ModelResponse,
  options: ExecuteToolsOptions,
): Promise<{ toolCalls: readonly ToolCall[]; outcomes: readonly ToolCallOutcome[] }> {
  const turn = state.trace.turn;
  const { toolCalls, originalIds } = uniqueToolCalls(response.tool_calls ?? [], turn, state.toolCallIds);
  state.messages.push(assistantMessage(response, toolCalls));
  for (let index = 0; index < toolCalls.length; index++) {
    const originalId = originalIds[index];
    state.trace.emit('tool_call', {
      toolCall: toolCalls[index]!,
      ...(originalId === undefined ? {} : { originalId }),
    });
  }
  const batchContext = {
    ...options.context,
    requestId: state.requestId,
    runId: state.runId,
    turnIndex: turn,
    ...(state.signal === undefined ? {} : { signal: state.signal }),
  } as ToolBatchContext;
  const rejectedCalls = options.rejectedCalls;
  const runnable =
    rejectedCalls === undefined
      ? toolCalls
      : toolCalls.filter((_toolCall, index) => !rejectedCalls.has(index));
  let ran: readonly ToolCallOutcome[];
  let runnerFailure: { readonly error: unknown } | undefined;
  try {
    ran = await options.runner.executeToolCalls(options.registry, runnable, batchContext, {
      concurrency: options.concurrency,
    });
  } catch (error) {
    // Only a custom runner can throw; its calls are still answered before the run fails with its error.
    runnerFailure = { error };
    ran = [];
  }
  const outcomes = rejectedCalls === undefined ? ran : mergeRejected(toolCalls, ran, rejectedCalls);
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
      durationMs: outcome.durationMs,
    });
  }
  if (runnerFailure !== undefined) throw runnerFailure.error;
  return { toolCalls, outcomes: filled ?? (outcomes as readonly ToolCallOutcome[]) };
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

/** Puts the rejected calls' error outcomes back among the outcomes of the calls that ran, in call order. */
function mergeRejected(
  toolCalls: readonly ToolCall[],
  ran: readonly ToolCallOutcome[],
  rejectedCalls: ReadonlyMap<number, string>,
): (ToolCallOutcome | undefined)[] {
  let next = 0;
  return toolCalls.map((toolCall, index) => {
    const error = rejectedCalls.get(index);
    return error === undefined ? ran[next++] : errorOutcome(toolCall, 'invalid_tool_call', error);
  });
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
