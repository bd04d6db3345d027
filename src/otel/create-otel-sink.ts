import { SpanKind, SpanStatusCode, context as otelContext, trace } from '@opentelemetry/api';
import type { Attributes, Context, HrTime, Span, Tracer } from '@opentelemetry/api';
import type { ToolCall } from '../model/messages.js';
import { toolCallStartOffsets } from '../tracing/tool-call-schedule.js';
import type { TraceEvent, TraceEventData, TraceEventOf, TraceSink } from '../tracing/trace-events.js';
import { genAi, genAiOperation, toolOrchestrator } from './gen-ai-attributes.js';
import { inputMessagesJson, outputMessagesJson } from './gen-ai-messages.js';

/**
 * An OpenTelemetry `Tracer` (`@opentelemetry/api` 1.x), e.g. `provider.getTracer('my-app')`,
 * declared by the one method the sink calls, so that these declarations hold without the
 * `@opentelemetry/api` types.
 */
export interface OtelTracer {
  startSpan(name: string, options?: object, context?: object): object;
}

/** Options of {@link createOtelSink}. */
export interface OtelSinkOptions {
  /** Where spans go. @default trace.getTracer('tool-orchestrator') from the global provider */
  readonly tracer?: OtelTracer;
  /**
   * Put message text (`gen_ai.input.messages`, `gen_ai.output.messages`), tool arguments and tool
   * results on spans. They may hold personal data and grow large. @default false
   */
  readonly captureContent?: boolean;
  /**
   * `gen_ai.provider.name` for events that do not name their provider. Each `llm_call` (and the
   * `error` of a failed call) carries its adapter's `provider`, which wins: set this only for
   * adapters that name none. @default the events' provider, else left out
   */
  readonly provider?: string;
  /**
   * `gen_ai.request.model` for events that do not name their model. Each `llm_call` carries its
   * adapter's `model`, which wins. @default the events' model, else left out (spans are then named
   * after the response's model)
   */
  readonly model?: string;
  /** `gen_ai.agent.name`; the run span is then named `invoke_agent {agentName}`. */
  readonly agentName?: string;
}

/**
 * A trace sink that turns events into OpenTelemetry spans: use it as the `traceEmitter` (it is a
 * function) or call `write`.
 */
export interface OtelTraceSink extends TraceSink {
  (event: TraceEvent): void;
}

/** An event of a type this version does not know. */
interface UnknownEvent {
  readonly type: string;
  readonly timestamp: number;
  readonly data?: unknown;
}

interface ToolBatch {
  /** When the calls were handed to the runner: the last `tool_call` event. */
  start: number;
  /** When the first result came back: the batch's end. */
  end: number;
  readonly calls: ToolCall[];
  readonly results: (TraceEventData['tool_result'] | undefined)[];
  resultCount: number;
}

interface RunSpans {
  readonly span: Span;
  /** The context child spans start in. */
  readonly context: Context;
  /** The provider and requested model the run span says, from the latest model call. */
  provider: string | undefined;
  model: string | undefined;
  /** The latest event's timestamp: where a model call that fails began. */
  lastTimestamp: number;
  /** Deltas seen since the last `llm_call`: that call was streamed. */
  streamed: boolean;
  /** The turn of the latest `llm_call`: an error in a later turn is that turn's model call failing. */
  modelTurn: number;
  batch: ToolBatch | undefined;
  errorType: string | undefined;
  /** `execute_tool` spans opened before their call returned, because a nested run started in them, by call id. */
  readonly openTools: Map<string, Span>;
  /** When the nested runs of those calls ended (whole milliseconds): their span ends no earlier. */
  readonly nestedEnds: Map<string, number>;
}

/**
 * Creates a sink that records each run as OpenTelemetry GenAI spans: `invoke_agent` for the run
 * (INTERNAL; a subagent's run nests under its parent's), `chat {model}` for each model call
 * (CLIENT) and `execute_tool {name}` for each tool call (INTERNAL), with start and end times taken
 * from the events. Failures set the span status and `error.type`. `@opentelemetry/api` (^1.9) is
 * an optional peer dependency that only this entry loads.
 *
 * @example
 * const sink = createOtelSink({ tracer: provider.getTracer('my-app') });
 * const orchestrator = new ToolOrchestrator(adapter, tools, { traceEmitter: sink });
 */
export function createOtelSink(options: OtelSinkOptions = {}): OtelTraceSink {
  // A tracer of @opentelemetry/api, whose spans the sink uses through that API.
  const tracer = (options.tracer as Tracer | undefined) ?? trace.getTracer('tool-orchestrator');
  const captureContent = options.captureContent === true;
  const runs = new Map<string, RunSpans>();

  const startRun = (event: TraceEventOf<'run_start'>): void => {
    const data = event.data;
    const provider = options.provider;
    const model = options.model;
    const parent = event.parentRunId === undefined ? undefined : runs.get(event.parentRunId);
    const parentContext =
      parent === undefined
        ? otelContext.active()
        : (callContext(parent, event.parentToolCallId, event.timestamp) ?? parent.context);
    const attributes: Attributes = {
      [genAi.operationName]: genAiOperation.invokeAgent,
      [genAi.conversationId]: event.runId,
      [toolOrchestrator.requestId]: data.requestId,
      [toolOrchestrator.maxTurns]: data.maxTurns,
    };
    if (provider !== undefined) attributes[genAi.providerName] = provider;
    if (model !== undefined) attributes[genAi.requestModel] = model;
    if (options.agentName !== undefined) attributes[genAi.agentName] = options.agentName;
    if (event.parentRunId !== undefined) attributes[toolOrchestrator.parentRunId] = event.parentRunId;
    if (event.parentToolCallId !== undefined)
      attributes[toolOrchestrator.parentToolCallId] = event.parentToolCallId;
    const name = options.agentName === undefined ? 'invoke_agent' : `invoke_agent ${options.agentName}`;
    const span = tracer.startSpan(
      name,
      { kind: SpanKind.INTERNAL, startTime: hrTime(event.timestamp), attributes },
      parentContext,
    );
    runs.set(event.runId, {
      span,
      context: trace.setSpan(parentContext, span),
      provider,
      model,
      lastTimestamp: event.timestamp,
      streamed: false,
      modelTurn: -1,
      batch: undefined,
      errorType: undefined,
      openTools: new Map(),
      nestedEnds: new Map(),
    });
  };

  /**
   * The context of the parent's `execute_tool` span for the call a nested run started in (an agent
   * tool's): the span is opened now, and ended when the call's result comes.
   */
  const callContext = (parent: RunSpans, toolCallId: string | undefined, at: number): Context | undefined => {
    const call = parent.batch?.calls.find((candidate) => candidate.id === toolCallId);
    if (call === undefined || toolCallId === undefined) return undefined;
    let span = parent.openTools.get(toolCallId);
    if (span === undefined) {
      span = startToolSpan(parent, call, Math.min(parent.batch!.start, at));
      parent.openTools.set(toolCallId, span);
    }
    return trace.setSpan(parent.context, span);
  };

  const startToolSpan = (run: RunSpans, call: ToolCall, start: number): Span =>
    tracer.startSpan(
      `execute_tool ${call.function.name}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: hrTime(start),
        attributes: {
          [genAi.operationName]: genAiOperation.executeTool,
          [genAi.toolName]: call.function.name,
          [genAi.toolCallId]: call.id,
          [genAi.toolType]: 'function',
          ...(captureContent ? { [genAi.toolCallArguments]: call.function.arguments } : {}),
        },
      },
      run.context,
    );

  /**
   * The attributes every chat span has. The event's provider and model win over the options; the
   * run span takes them too (a run span starts before any call names them).
   */
  const chatAttributes = (
    run: RunSpans,
    event: TraceEventOf<'llm_call'> | TraceEventOf<'error'>,
  ): { attributes: Attributes; model: string | undefined } => {
    const provider = event.data.provider ?? options.provider;
    const model = event.data.model ?? options.model;
    const attributes: Attributes = {
      [genAi.operationName]: genAiOperation.chat,
      [genAi.conversationId]: event.runId,
      [toolOrchestrator.turn]: event.turn,
    };
    if (provider !== undefined) {
      attributes[genAi.providerName] = provider;
      if (provider !== run.provider) run.span.setAttribute(genAi.providerName, provider);
      run.provider = provider;
    }
    if (model !== undefined) {
      attributes[genAi.requestModel] = model;
      if (model !== run.model) run.span.setAttribute(genAi.requestModel, model);
      run.model = model;
    }
    return { attributes, model };
  };

  const modelCall = (run: RunSpans, event: TraceEventOf<'llm_call'>): void => {
    const { response, usage, durationMs, finalAnswer } = event.data;
    const { attributes, model } = chatAttributes(run, event);
    if (response.model !== undefined) attributes[genAi.responseModel] = response.model;
    if (typeof response.finish_reason === 'string')
      attributes[genAi.responseFinishReasons] = [response.finish_reason];
    if (usage !== undefined) {
      attributes[genAi.usageInputTokens] = usage.promptTokens;
      attributes[genAi.usageOutputTokens] = usage.completionTokens;
      if (usage.reasoningTokens > 0) attributes[genAi.usageReasoningOutputTokens] = usage.reasoningTokens;
      if (usage.cachedPromptTokens > 0)
        attributes[genAi.usageCacheReadInputTokens] = usage.cachedPromptTokens;
    }
    if (run.streamed) attributes[genAi.requestStream] = true;
    if (finalAnswer) attributes[toolOrchestrator.finalAnswer] = true;
    if (response.requestId !== undefined) attributes[toolOrchestrator.providerRequestId] = response.requestId;
    if (captureContent) {
      attributes[genAi.inputMessages] = inputMessagesJson(event.data.messages);
      attributes[genAi.outputMessages] = outputMessagesJson(response);
    }
    run.streamed = false;
    run.modelTurn = event.turn;
    startChat(run, model ?? response.model, attributes, event.timestamp - durationMs).end(
      hrTime(event.timestamp),
    );
  };

  const startChat = (run: RunSpans, model: string | undefined, attributes: Attributes, start: number): Span =>
    tracer.startSpan(
      model === undefined ? 'chat' : `chat ${model}`,
      { kind: SpanKind.CLIENT, startTime: hrTime(start), attributes },
      run.context,
    );

  /** A model call that threw: it began after the run's previous event and ends at the error. */
  const failedModelCall = (run: RunSpans, event: TraceEventOf<'error'>, errorType: string): void => {
    const { attributes, model } = chatAttributes(run, event);
    attributes[genAi.errorType] = errorType;
    const span = startChat(run, model, attributes, run.lastTimestamp);
    fail(span, errorType, event.data.name, event.data.message, event.timestamp);
    span.end(hrTime(event.timestamp));
  };

  const toolSpans = (
    run: RunSpans,
    batch: ToolBatch,
    endedBy?: { type: string; message: string; at: number },
  ): void => {
    const durations = batch.results.map((result) => result?.durationMs ?? 0);
    const offsets = toolCallStartOffsets(durations, batch.end - batch.start);
    for (let index = 0; index < batch.calls.length; index++) {
      const call = batch.calls[index]!;
      const result = batch.results[index];
      const start = batch.start + offsets[index]!;
      const opened = run.openTools.get(call.id);
      run.openTools.delete(call.id);
      const span = opened ?? startToolSpan(run, call, start);
      if (captureContent && result !== undefined && result.error === undefined)
        span.setAttribute(
          genAi.toolCallResult,
          typeof result.content === 'string' ? result.content : JSON.stringify(result.content),
        );
      if (result === undefined) {
        const ended = endedBy ?? {
          type: 'no_result',
          message: 'The run ended before this call returned.',
          at: start,
        };
        fail(span, ended.type, ended.type, ended.message, ended.at);
        span.end(hrTime(Math.max(start, ended.at)));
      } else {
        if (result.error !== undefined) {
          const errorType = result.errorCode ?? 'tool_error';
          span.setAttribute(toolOrchestrator.toolErrorCode, errorType);
          fail(span, errorType, errorType, result.error, start + result.durationMs);
        }
        const nestedEnd = run.nestedEnds.get(call.id) ?? Number.NEGATIVE_INFINITY;
        run.nestedEnds.delete(call.id);
        span.end(hrTime(Math.max(start + result.durationMs, nestedEnd)));
      }
    }
  };

  const toolCall = (run: RunSpans, event: TraceEventOf<'tool_call'>): void => {
    let batch = run.batch;
    if (batch === undefined || batch.resultCount > 0) {
      batch = { start: event.timestamp, end: event.timestamp, calls: [], results: [], resultCount: 0 };
      run.batch = batch;
    }
    batch.start = event.timestamp;
    batch.calls.push(event.data.toolCall);
    batch.results.push(undefined);
  };

  const toolResult = (run: RunSpans, event: TraceEventOf<'tool_result'>): void => {
    const batch = run.batch;
    if (batch === undefined) return;
    const index = batch.calls.findIndex((call) => call.id === event.data.toolCallId);
    if (index < 0 || batch.results[index] !== undefined) return;
    if (batch.resultCount === 0) batch.end = event.timestamp;
    batch.results[index] = event.data;
    batch.resultCount++;
    if (batch.resultCount === batch.calls.length) {
      run.batch = undefined;
      toolSpans(run, batch);
    }
  };

  const endRun = (run: RunSpans, event: TraceEventOf<'run_end'>): void => {
    runs.delete(event.runId);
    const parent = event.parentRunId === undefined ? undefined : runs.get(event.parentRunId);
    const callId = event.parentToolCallId;
    if (parent !== undefined && callId !== undefined && parent.openTools.has(callId)) {
      parent.nestedEnds.set(callId, event.timestamp);
    }
    if (run.batch !== undefined) toolSpans(run, run.batch);
    const { stopReason, turns, usage } = event.data;
    const span = run.span;
    span.setAttribute(toolOrchestrator.stopReason, stopReason);
    span.setAttribute(toolOrchestrator.turns, turns);
    span.setAttribute(genAi.usageInputTokens, usage.promptTokens);
    span.setAttribute(genAi.usageOutputTokens, usage.completionTokens);
    if (usage.reasoningTokens > 0) span.setAttribute(genAi.usageReasoningOutputTokens, usage.reasoningTokens);
    if (usage.cachedPromptTokens > 0)
      span.setAttribute(genAi.usageCacheReadInputTokens, usage.cachedPromptTokens);
    if (stopReason === 'error' && run.errorType === undefined) {
      span.setAttribute(genAi.errorType, '_OTHER');
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(hrTime(event.timestamp));
  };

  const runError = (run: RunSpans, event: TraceEventOf<'error'>): void => {
    const errorType = event.data.code ?? event.data.name;
    run.errorType = errorType;
    const batch = run.batch;
    if (batch !== undefined && batch.resultCount < batch.calls.length) {
      // The calls were still running: the runner itself threw.
      run.batch = undefined;
      toolSpans(run, batch, { type: errorType, message: event.data.message, at: event.timestamp });
    } else if (event.turn > run.modelTurn) {
      failedModelCall(run, event, errorType);
    }
    // Otherwise this turn's model call had answered: a custom tool runner or a stop condition threw.
    fail(run.span, errorType, event.data.name, event.data.message, event.timestamp);
  };

  const write = (event: TraceEvent): void => {
    if (event.type === 'run_start') {
      startRun(event);
      return;
    }
    const run = runs.get(event.runId);
    if (run === undefined) return;
    switch (event.type) {
      case 'llm_call':
        modelCall(run, event);
        break;
      case 'tool_call':
        toolCall(run, event);
        break;
      case 'tool_result':
        toolResult(run, event);
        break;
      case 'content_delta':
      case 'reasoning_delta':
      case 'tool_call_delta':
        run.streamed = true;
        break;
      case 'reasoning_content':
        break;
      case 'warning':
        run.span.addEvent(
          'tool_orchestrator.warning',
          {
            'tool_orchestrator.warning.code': event.data.code,
            'tool_orchestrator.warning.message': event.data.message,
          },
          hrTime(event.timestamp),
        );
        break;
      case 'error':
        runError(run, event);
        break;
      case 'run_end':
        endRun(run, event);
        return;
      default:
        otherEvent(run, event as unknown as UnknownEvent);
    }
    run.lastTimestamp = event.timestamp;
  };

  const sink = ((event: TraceEvent) => write(event)) as OtelTraceSink;
  sink.write = write;
  return sink;
}

/** Marks a span failed, as the conventions' "recording errors" asks: status, `error.type`, the exception. */
function fail(span: Span, errorType: string, name: string, message: string, at: number): void {
  span.setAttribute(genAi.errorType, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.recordException({ name, message }, hrTime(at));
}

/** An event type this version does not know (a newer loop's): a span event with its plain fields. */
function otherEvent(run: RunSpans, event: UnknownEvent): void {
  const attributes: Attributes = {};
  if (typeof event.data === 'object' && event.data !== null) {
    for (const [key, value] of Object.entries(event.data)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        attributes[`tool_orchestrator.${key}`] = value;
    }
  }
  run.span.addEvent(`tool_orchestrator.${event.type}`, attributes, hrTime(event.timestamp));
}

/** Epoch milliseconds as OpenTelemetry's [seconds, nanoseconds], exact whatever the clock's origin. */
function hrTime(milliseconds: number): HrTime {
  const seconds = Math.floor(milliseconds / 1000);
  const nanoseconds = Math.round((milliseconds - seconds * 1000) * 1e6);
  return nanoseconds >= 1e9 ? [seconds + 1, nanoseconds - 1e9] : [seconds, nanoseconds];
}
