import { EmptyResponseError } from '../../errors/empty-response-error.js';
import type { ModelResponse, ModelStreamEvent } from '../../model/model-adapter.js';
import { reasoningText } from '../../model/reasoning-text.js';
import type { AttemptDeadline } from './attempt-deadline.js';
import type { ClientConnection } from './create-client.js';
import { originFields } from './parse-completion.js';
import type { ResponseOrigin } from './parse-completion.js';
import { readBody } from './read-body.js';
import { SseChunkReader, streamEnd } from './sse-chunk-reader.js';

/** Turns one wire's stream events into stream events, and assembles the response they make. */
export interface StreamAssembler {
  /** The stream events of one parsed SSE event (none, or a few). */
  push(event: unknown): Iterable<ModelStreamEvent>;
  /** True once the wire's last event arrived: the rest of the body is not read. */
  readonly finished: boolean;
  /** The response the stream made; throws a typed error when it is cut short. */
  finish(reader: SseChunkReader): ModelResponse;
}

/** One streamed HTTP attempt: how to send it, and how to read its answer. */
export interface StreamAttempt {
  /** Sends the request under the attempt's deadline. */
  send(): Promise<Response>;
  /** Who answered: the provider and the response's request id. */
  origin(response: Response): ResponseOrigin;
  readonly deadline: AttemptDeadline;
  readonly signal: AbortSignal | undefined;
  readonly decodeEvents: ClientConnection['decodeEvents'];
  /** The response of a JSON body (its text): some compatible servers ignore `stream`. */
  parseJson(text: string, origin: ResponseOrigin): ModelResponse;
  /** A new assembler for an event-stream body. */
  assembler(origin: ResponseOrigin): StreamAssembler;
}

/**
 * Sends one attempt and yields its stream events, in the order they arrive, then one `response`. An
 * event stream is read one event at a time, the attempt's deadline restarted on each; a JSON body
 * is read as the same events at once. Reading stops as soon as the caller aborts.
 *
 * @throws {EmptyResponseError} when the stream held no event (retryable).
 */
export async function* streamAttemptEvents(
  attempt: StreamAttempt,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { signal } = attempt;
  const response = await attempt.send();
  const origin = attempt.origin(response);
  if (isJsonResponse(response)) {
    for (const event of responseEvents(attempt.parseJson(await readBody(response, origin), origin))) {
      if (signal?.aborted === true) return;
      yield event;
    }
    return;
  }
  const reader = new SseChunkReader(response, origin, () => attempt.deadline.restart(), attempt.decodeEvents);
  const assembler = attempt.assembler(origin);
  try {
    for (let event = await reader.next(); event !== streamEnd; event = await reader.next()) {
      for (const streamEvent of assembler.push(event)) {
        if (signal?.aborted === true) return;
        yield streamEvent;
      }
      if (signal?.aborted === true || assembler.finished) break;
    }
  } finally {
    // Cancels the body when the loop was left early.
    await reader.close();
  }
  if (signal?.aborted === true) return;
  if (reader.chunks === 0) throw emptyStream(response, origin);
  yield { type: 'response', response: assembler.finish(reader) };
}

/** A whole response as the events of a stream: its reasoning, its text, its tool calls, itself. */
export function responseEvents(result: ModelResponse): ModelStreamEvent[] {
  const events: ModelStreamEvent[] = [];
  const reasoning = reasoningText(result);
  if (reasoning !== '') events.push({ type: 'reasoning_delta', delta: reasoning });
  if (result.content !== null) events.push({ type: 'content_delta', delta: result.content });
  for (const [index, toolCall] of (result.tool_calls ?? []).entries()) {
    events.push({
      type: 'tool_call_delta',
      index,
      id: toolCall.id,
      name: toolCall.function.name,
      argumentsDelta: toolCall.function.arguments,
    });
  }
  events.push({ type: 'response', response: result });
  return events;
}

function emptyStream(response: Response, origin: ResponseOrigin): EmptyResponseError {
  const contentType = response.headers.get('content-type');
  const notAStream =
    contentType !== null && !contentType.toLowerCase().includes('text/event-stream')
      ? ` (it answered with content-type ${JSON.stringify(contentType)}, not an event stream: check baseURL)`
      : '';
  return new EmptyResponseError({
    ...originFields(origin),
    status: 200,
    message: `${origin.provider} ended the stream without a single chunk${notAStream}.`,
  });
}

function isJsonResponse(response: Response): boolean {
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType.includes('application/json') || mediaType.endsWith('+json');
}
