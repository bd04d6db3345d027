import type { EvalToolCall, TaskResult } from './eval-case.js';
import type { ChatMessage } from '../model/messages.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import type { Usage } from '../model/usage.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/** A task's result in one shape. */
export interface TaskOutput {
  readonly content: string;
  readonly output?: unknown;
  readonly messages: readonly ChatMessage[];
  readonly traces: readonly TraceEvent[];
  readonly toolCalls: readonly EvalToolCall[];
  readonly usage?: Usage;
  readonly costUsd?: number;
}

/** Reads what a task returned: a string is the answer; an object (a `RunResult`) gives its fields. */
export function readTaskResult(result: TaskResult, caseId: string): TaskOutput {
  if (typeof result === 'string') return { content: result, messages: [], traces: [], toolCalls: [] };
  if (typeof result !== 'object' || result === null) {
    throw new InvalidArgumentError({
      argument: `the task's result for case "${caseId}"`,
      value: result,
      message:
        'return a RunResult, an object with `content` (and `output`, `messages`, `usage`...), or the answer as a string',
    });
  }
  const messages = result.messages ?? [];
  return {
    content: typeof result.content === 'string' ? result.content : '',
    ...(result.output === undefined ? {} : { output: result.output }),
    messages,
    traces: result.traces ?? [],
    toolCalls: toolCallsOf(messages),
    ...(result.usage === undefined ? {} : { usage: result.usage }),
    ...(result.costUsd === undefined ? {} : { costUsd: result.costUsd }),
  };
}

function toolCallsOf(messages: readonly ChatMessage[]): EvalToolCall[] {
  return messages.flatMap((message) =>
    message.role === 'assistant'
      ? (message.tool_calls ?? []).map((call) => ({
          name: call.function.name,
          arguments: parsed(call.function.arguments),
        }))
      : [],
  );
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
