import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelToolDefinition,
} from '../model/model-adapter.js';
import { addUsage } from '../model/usage.js';
import { checkResponse } from './check-response.js';
import type { CheckedResponse } from './check-response.js';
import { raceAbort } from './race-abort.js';
import { readModelStream } from './read-model-stream.js';
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

/**
 * Calls the model once (streaming or not), checks the response against the adapter contract,
 * records usage and emits `llm_call` and `reasoning_content`. With a signal, the call is raced
 * against it, so an adapter that ignores the signal still ends the step at the abort.
 *
 * @throws {UnexpectedResponseError} when the adapter broke its contract (see `checkResponse`).
 * @throws {AbortedError} when the signal aborts first.
 */
export async function callModelStep(state: RunState, options: CallModelOptions): Promise<CheckedResponse> {
  const { adapter, tools, now } = options;
  const signal = state.signal;
  const messageCount = state.messages.length;
  const callOptions: ModelCallOptions = {
    ...(signal === undefined ? {} : { signal }),
    ...(options.finalAnswer ? { toolChoice: 'none' as const } : {}),
  };
  const provider = adapter.provider ?? 'unknown';
  const started = now();
  let raw: unknown;
  if (options.stream) {
    raw = await readModelStream(state, adapter, tools, callOptions, provider);
  } else {
    const pending = adapter.call(state.messages, tools, callOptions);
    raw = await (signal === undefined ? pending : raceAbort(pending, signal));
  }
  const durationMs = now() - started;
  const checked = checkResponse(raw, provider);
  const response: ModelResponse = checked.response;
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
  return checked;
}
