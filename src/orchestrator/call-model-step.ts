import { ModelProviderError } from '../errors/model-provider-error.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelToolDefinition,
} from '../model/model-adapter.js';
import { addUsage } from '../model/usage.js';
import type { RunState } from './run-state.js';
import { lazySnapshot } from './run-state.js';

/** How one model call is made. */
export interface CallModelOptions {
  readonly adapter: ModelAdapter;
  readonly tools: readonly ModelToolDefinition[];
  readonly stream: boolean;
  readonly now: () => number;
  /** The extra call with tools disabled after `maxTurns`. */
  readonly finalAnswer: boolean;
}

/** Calls the model once (streaming or not), records usage and emits `llm_call` and `reasoning_content`. */
export async function callModelStep(state: RunState, options: CallModelOptions): Promise<ModelResponse> {
  const { adapter, tools, now } = options;
  const messageCount = state.messages.length;
  const callOptions: ModelCallOptions = {
    ...(state.signal === undefined ? {} : { signal: state.signal }),
    ...(options.finalAnswer ? { toolChoice: 'none' as const } : {}),
  };
  const started = now();
  const response = options.stream
    ? await streamResponse(state, adapter, tools, callOptions)
    : await adapter.call(state.messages, tools, callOptions);
  const durationMs = now() - started;
  state.turns++;
  state.usage = addUsage(state.usage, response.usage);
  state.lastResponse = response;
  const snapshot = lazySnapshot(state.messages, messageCount);
  state.trace.emit('llm_call', {
    get messages() {
      return snapshot();
    },
    response,
    usage: response.usage,
    durationMs,
    finalAnswer: options.finalAnswer,
  });
  if (typeof response.reasoning_content === 'string' && response.reasoning_content !== '') {
    state.trace.emit('reasoning_content', { content: response.reasoning_content });
  }
  return response;
}

async function streamResponse(
  state: RunState,
  adapter: ModelAdapter,
  tools: readonly ModelToolDefinition[],
  callOptions: ModelCallOptions,
): Promise<ModelResponse> {
  let response: ModelResponse | undefined;
  // `stream` is checked at construction when `stream: true`.
  for await (const event of adapter.stream!(state.messages, tools, callOptions)) {
    switch (event.type) {
      case 'content_delta':
        state.trace.emit('content_delta', { delta: event.delta });
        break;
      case 'reasoning_delta':
        state.trace.emit('reasoning_delta', { delta: event.delta });
        break;
      case 'tool_call_delta':
        state.trace.emit('tool_call_delta', {
          index: event.index,
          ...(event.id === undefined ? {} : { id: event.id }),
          ...(event.name === undefined ? {} : { name: event.name }),
          argumentsDelta: event.argumentsDelta,
        });
        break;
      case 'response':
        response = event.response;
        break;
    }
  }
  if (response === undefined) {
    throw new ModelProviderError('stream_error', {
      provider: adapter.provider ?? 'unknown',
      message:
        'The adapter\'s stream ended without a final "response" event. A ModelAdapter.stream() must end with { type: "response", response }.',
    });
  }
  return response;
}
