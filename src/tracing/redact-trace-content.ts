import type { ToolCall } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { TraceEventData, TraceEventType } from './trace-events.js';

/**
 * The payload of an event as `traceContent: 'metadata'` sends it: names, ids, counts, sizes,
 * durations, usage and error codes stay; message text, reasoning, tool arguments, tool results
 * and error messages (which can quote any of them) become `''`, `null`, `[]` or are left out.
 * The shape stays the same, so typed consumers need no second code path.
 */
export function metadataOnly<Type extends TraceEventType>(
  type: Type,
  data: TraceEventData[Type],
): TraceEventData[Type] {
  return redactors[type](data as never) as TraceEventData[Type];
}

type Redactors = { readonly [Type in TraceEventType]: (data: TraceEventData[Type]) => TraceEventData[Type] };

const same = <T>(data: T): T => data;

const redactors: Redactors = {
  run_start: same,
  llm_call: (data) => ({
    ...(data.provider === undefined ? {} : { provider: data.provider }),
    ...(data.model === undefined ? {} : { model: data.model }),
    // `messages` is a lazy getter: read only the count, never the messages.
    messages: [],
    messageCount: data.messageCount,
    response: redactResponse(data.response),
    usage: data.usage,
    durationMs: data.durationMs,
    finalAnswer: data.finalAnswer,
    ...(data.contextTokens === undefined ? {} : { contextTokens: data.contextTokens }),
  }),
  reasoning_content: () => ({ content: '' }),
  content_delta: () => ({ delta: '' }),
  reasoning_delta: () => ({ delta: '' }),
  tool_call_delta: (data) => ({ ...data, argumentsDelta: '' }),
  tool_call: (data) => ({ ...data, toolCall: redactCall(data.toolCall) }),
  tool_call_repaired: (data) => ({
    toolCallId: data.toolCallId,
    original: redactCall(data.original),
    repaired: redactCall(data.repaired),
    errorCode: data.errorCode,
    error: '',
  }),
  tool_result: (data) => ({
    toolCallId: data.toolCallId,
    name: data.name,
    ...(data.error === undefined ? {} : { error: '' }),
    ...(data.errorCode === undefined ? {} : { errorCode: data.errorCode }),
    content: '',
    contentLength: data.contentLength,
    durationMs: data.durationMs,
  }),
  guardrail: (data) => (data.message === undefined ? data : { ...data, message: '' }),
  handoff: same,
  context_compacted: (data) => (data.summary === undefined ? data : { ...data, summary: '' }),
  warning: same,
  error: (data) => ({
    name: data.name,
    ...(data.code === undefined ? {} : { code: data.code }),
    message: '',
    ...(data.provider === undefined ? {} : { provider: data.provider }),
    ...(data.model === undefined ? {} : { model: data.model }),
  }),
  run_end: same,
};

function redactCall(toolCall: ToolCall): ToolCall {
  return { id: toolCall.id, type: toolCall.type, function: { name: toolCall.function.name, arguments: '' } };
}

function redactResponse(response: ModelResponse): ModelResponse {
  return {
    content: null,
    ...(response.tool_calls == null ? {} : { tool_calls: response.tool_calls.map(redactCall) }),
    ...(response.finish_reason === undefined ? {} : { finish_reason: response.finish_reason }),
    ...(response.usage === undefined ? {} : { usage: response.usage }),
    ...(response.requestId === undefined ? {} : { requestId: response.requestId }),
    ...(response.model === undefined ? {} : { model: response.model }),
  };
}
