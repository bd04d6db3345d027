import type { ChatMessage } from '../../model/messages.js';
import type { ModelAdapter, ModelResponse, ModelToolDefinition } from '../../model/model-adapter.js';
import { ToolOrchestrator } from '../../orchestrator/tool-orchestrator.js';
import type { TraceEmitter } from '../../tracing/trace-events.js';

/** Options of {@link tracedModelCall}. */
export interface TracedModelCallOptions {
  readonly adapter: ModelAdapter;
  readonly messages: readonly ChatMessage[];
  /**
   * Tools shown to the model with `toolChoice: 'none'`, for a transcript that holds tool calls
   * (some providers refuse one without tool definitions). @default [] (no tools, no toolChoice)
   */
  readonly tools?: readonly ModelToolDefinition[];
  /** Receives the call's `run_start`, `llm_call` and `run_end` events. */
  readonly traceEmitter?: TraceEmitter;
  /** Stamped on the events: the run this call belongs to. */
  readonly parentRunId?: string;
  readonly signal?: AbortSignal;
}

/**
 * Makes one model call with tools off through a `ToolOrchestrator` (an empty registry,
 * `maxTurns: 1`), so the call is traced like every other: `traceEmitter` gets a run of its own
 * (`run_start`, `llm_call`, `run_end`) stamped with `parentRunId`. Resolves to the model's
 * response as it came. Tool calls the model makes anyway run against the empty registry, so
 * they show up in the trace as unknown-tool results; nothing is executed.
 *
 * @throws the signal's reason when aborted, and the adapter's error when the call fails.
 */
export async function tracedModelCall(options: TracedModelCallOptions): Promise<ModelResponse> {
  const tools = options.tools ?? [];
  let response: ModelResponse | undefined;
  // The registry is empty, so the orchestrator sends no tools; this adapter sends `tools` with them off.
  const adapter: ModelAdapter = {
    ...(options.adapter.provider === undefined ? {} : { provider: options.adapter.provider }),
    ...(options.adapter.model === undefined ? {} : { model: options.adapter.model }),
    call: async (messages, _tools, callOptions) => {
      response = await options.adapter.call(messages, tools, {
        ...callOptions,
        ...(tools.length === 0 ? {} : { toolChoice: 'none' as const }),
      });
      return response;
    },
  };
  const orchestrator = new ToolOrchestrator(
    adapter,
    {},
    {
      maxTurns: 1,
      collectTraces: false,
      ...(options.traceEmitter === undefined ? {} : { traceEmitter: options.traceEmitter }),
      ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  const result = await orchestrator.run(options.messages);
  if (result.stopReason === 'aborted') options.signal?.throwIfAborted();
  if (response === undefined) throw new Error('The model call ended without a response.');
  return response;
}
