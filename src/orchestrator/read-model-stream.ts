import { ModelProviderError } from '../errors/model-provider-error.js';
import { UnexpectedResponseError } from '../errors/unexpected-response-error.js';
import { describeValue, kindOf } from '../errors/describe-value.js';
import type { ChatMessage } from '../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../model/model-adapter.js';
import { raceAbort } from './race-abort.js';
import type { RunState } from './run-state.js';

/**
 * Reads the adapter's stream, emitting its deltas as trace events, and resolves to the value of
 * its final `response` event (checked afterwards like a `call` result). With a signal, every
 * step of the stream is raced against it: a stream that stops yielding and ignores the signal
 * cannot keep the run waiting, and is told to stop through `return()`.
 *
 * @throws {UnexpectedResponseError} when `stream()` returns no async iterable, or yields a non-object.
 */
export async function readModelStream(
  state: RunState,
  adapter: ModelAdapter,
  messages: readonly ChatMessage[],
  tools: readonly ModelToolDefinition[],
  callOptions: ModelCallOptions,
  provider: string,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const onText = state.onText;
  // The loop streams only with an adapter that has `stream` (checked at construction for `stream: true`).
  const iterator = iteratorOf(adapter.stream!(messages, tools, callOptions), provider);
  let response: unknown;
  // A `response` event whose response is missing is checked like a `call` that resolved to nothing.
  let received = false;
  let finished = false;
  try {
    for (;;) {
      const pending = iterator.next();
      const step: unknown = await raceAbort(pending, signal);
      if (typeof step !== 'object' || step === null) {
        throw contractError(provider, step, `its stream iterator's next() resolved to ${kindOf(step)}`);
      }
      if ((step as IteratorResult<unknown>).done === true) {
        finished = true;
        break;
      }
      const event = (step as IteratorResult<unknown>).value;
      if (typeof event !== 'object' || event === null) {
        throw contractError(
          provider,
          event,
          `its stream yielded ${kindOf(event)} (${describeValue(event)}), not a stream event object`,
        );
      }
      const streamEvent = event as ModelStreamEvent;
      switch (streamEvent.type) {
        case 'content_delta':
          state.trace.emit('content_delta', { delta: streamEvent.delta });
          if (onText !== undefined && typeof streamEvent.delta === 'string') onText(streamEvent.delta);
          break;
        case 'reasoning_delta':
          state.trace.emit('reasoning_delta', { delta: streamEvent.delta });
          break;
        case 'tool_call_delta':
          state.trace.emit('tool_call_delta', {
            index: streamEvent.index,
            ...(streamEvent.id === undefined ? {} : { id: streamEvent.id }),
            ...(streamEvent.name === undefined ? {} : { name: streamEvent.name }),
            argumentsDelta: streamEvent.argumentsDelta,
          });
          break;
        case 'response':
          response = streamEvent.response;
          received = true;
          break;
      }
    }
  } finally {
    // As `for await` does on an early exit; not awaited, since a stalled stream may never answer.
    if (!finished) closeQuietly(iterator);
  }
  if (!received) {
    throw new ModelProviderError('stream_error', {
      provider,
      message:
        'The adapter\'s stream ended without a final "response" event. A ModelAdapter.stream() must end with { type: "response", response }.',
    });
  }
  return response;
}

function iteratorOf(stream: unknown, provider: string): AsyncIterator<unknown> {
  const iterable = stream as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null | undefined;
  const asyncIterator = iterable?.[Symbol.asyncIterator];
  if (typeof asyncIterator === 'function') return asyncIterator.call(iterable);
  if (typeof iterable?.[Symbol.iterator] === 'function') {
    // `for await` accepts a sync iterable too; keep accepting it.
    return (async function* () {
      yield* iterable as Iterable<unknown>;
    })();
  }
  throw contractError(
    provider,
    stream,
    `stream() returned ${kindOf(stream)}${stream == null ? '' : ` (${describeValue(stream)})`}, not an async iterable`,
  );
}

function closeQuietly(iterator: AsyncIterator<unknown>): void {
  try {
    const closing = iterator.return?.();
    if (closing !== undefined) Promise.resolve(closing).catch(() => {});
  } catch {
    // The stream is being abandoned; its own failure to close changes nothing.
  }
}

function contractError(provider: string, rawOutput: unknown, problem: string): UnexpectedResponseError {
  return new UnexpectedResponseError({
    provider,
    rawOutput,
    message: `The model adapter "${provider}": ${problem}. A ModelAdapter.stream() must return an async iterable of { type, ... } events ending with { type: "response", response } (see docs/adapters.md).`,
  });
}
