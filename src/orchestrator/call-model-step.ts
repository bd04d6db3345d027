import type { ChatMessage } from '../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelToolDefinition,
  ToolChoice,
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
  /** What is sent: the transcript, or what `prepareTurn` returned. */
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  /** Sent when set; the final answer call sends `'none'` whatever this is. */
  readonly toolChoice: ToolChoice | undefined;
  readonly stream: boolean;
  readonly now: () => number;
  /** The extra call with tools disabled after `maxTurns`. */
  readonly finalAnswer: boolean;
  // Every field is always set, so the options of every call have one shape (with and without a
  // context window), and the step's reads of them stay monomorphic.
  /** The estimated tokens sent, reported on `llm_call` (with `contextWindow` on). */
  readonly contextTokens: number | undefined;
  /** `messages` is an array that later calls append to (the context window's sent view), like the transcript. */
  readonly messagesGrow: boolean;
}

/**
 * Calls the model once (streaming or not), checks the response against the adapter contract,
 * records usage and emits `llm_call` and `reasoning_content`. With a signal, an abort ends the step
 * (or the run's drive, see `RunAbort`) at once, even when the adapter ignores the signal.
 *
 * @throws {UnexpectedResponseError} when the adapter broke its contract (see `checkResponse`).
 * @throws {AbortedError} when the signal aborts first.
 */
export async function callModelStep(state: RunState, options: CallModelOptions): Promise<CheckedResponse> {
  const { adapter, tools, now, messages } = options;
  const signal = state.signal;
  const messageCount = messages.length;
  const toolChoice = options.finalAnswer ? 'none' : options.toolChoice;
  const callOptions: ModelCallOptions = {
    ...(signal === undefined ? {} : { signal }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
  };
  const provider = adapter.provider ?? 'unknown';
  const started = now();
  let raw: unknown;
  state.wakeReaders?.();
  if (options.stream) {
    raw = await readModelStream(state, adapter, messages, tools, callOptions, provider);
  } else {
    const pending = adapter.call(messages, tools, callOptions);
    const abort = state.abort;
    if (abort === undefined) raw = await pending;
    else {
      const entered = abort.enter();
      try {
        raw = await (entered ? pending : raceAbort(pending, abort.signal));
      } finally {
        abort.leave(entered);
      }
    }
  }
  const durationMs = now() - started;
  const checked = checkResponse(raw, provider);
  const response: ModelResponse = checked.response;
  state.turns++;
  state.usage = addUsage(state.usage, response.usage);
  state.lastResponse = response;
  // The transcript array only grows, so a prefix of it is snapshotted lazily; messages from
  // `prepareTurn` are already a copy of their own.
  const snapshot =
    messages === state.messages || options.messagesGrow
      ? lazySnapshot(messages, messageCount)
      : () => messages;
  const contextTokens = options.contextTokens;
  // Two literals, not a spread: a spread makes an object of a new shape on every call.
  state.trace.emit(
    'llm_call',
    contextTokens === undefined
      ? {
          get messages() {
            return snapshot();
          },
          messageCount,
          response,
          usage: response.usage,
          durationMs,
          finalAnswer: options.finalAnswer,
        }
      : {
          get messages() {
            return snapshot();
          },
          messageCount,
          response,
          usage: response.usage,
          durationMs,
          finalAnswer: options.finalAnswer,
          contextTokens,
        },
  );
  if (typeof response.reasoning_content === 'string' && response.reasoning_content !== '') {
    state.trace.emit('reasoning_content', { content: response.reasoning_content });
  }
  // Streamed content reached `onText` delta by delta.
  if (
    !options.stream &&
    state.onText !== undefined &&
    typeof response.content === 'string' &&
    response.content !== ''
  ) {
    state.onText(response.content);
  }
  return checked;
}
