import { _iterSSEMessages } from 'openai/streaming';
import { ConnectionError } from '../../errors/connection-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import { isRecord } from './normalize-usage.js';
import type { ResponseOrigin } from './parse-completion.js';
import { isModelProviderError } from './to-provider-error.js';

/** How far a stream got, for the checks once it ends and for error messages. */
export interface StreamProgress {
  /** Data events parsed so far (`[DONE]` excluded). */
  chunks: number;
  /** True once `data: [DONE]` arrived. */
  done: boolean;
}

/**
 * Reads a whole response body as text.
 *
 * @throws {ConnectionError} when the connection breaks before the body ends (Node's bare
 * `TypeError: terminated`); retryable.
 */
export async function readBody(response: Response, origin: ResponseOrigin): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw brokenConnection(error, origin, 'while reading the response');
  }
}

/**
 * Yields the parsed data of each Server-Sent Event of a streamed chat completion, decoded by the
 * `openai` client's own SSE parser, and stops at `data: [DONE]`; calls `onChunk` on each (not on
 * comments such as `: keep-alive`). Unlike the client's `Stream`, it tells a `[DONE]` from a body
 * that just ended (see `progress.done`), and it prints nothing.
 *
 * @throws {UnexpectedResponseError} when an event's data is not JSON; not retryable.
 * @throws {StreamError} when the provider sends an `error` object; retryable.
 * @throws {ConnectionError} when the connection breaks mid-stream; retryable.
 */
export async function* readStreamChunks(
  response: Response,
  origin: ResponseOrigin,
  progress: StreamProgress,
  onChunk: () => void,
): AsyncGenerator<unknown, void, undefined> {
  try {
    // The controller is aborted by the decoder only when there is no body at all.
    for await (const event of _iterSSEMessages(response, new AbortController())) {
      if (event.data.startsWith('[DONE]')) {
        progress.done = true;
        return;
      }
      const data = parseEventData(event.data, origin, progress.chunks);
      if (isRecord(data) && data['error'] !== undefined && data['error'] !== null) {
        throw streamedError(data['error'], origin);
      }
      if (event.event === 'error') throw streamedError(data, origin);
      progress.chunks += 1;
      onChunk();
      yield data;
    }
  } catch (error) {
    if (isModelProviderError(error)) throw error;
    throw brokenConnection(
      error,
      origin,
      `while reading the stream after ${plural(progress.chunks, 'chunk')}`,
    );
  }
}

function parseEventData(data: string, origin: ResponseOrigin, chunks: number): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new UnexpectedResponseError({
      ...details(origin),
      status: 200,
      rawOutput: data.slice(0, 2000),
      cause: error,
      message: `${origin.provider} sent a stream event that is not JSON: ${JSON.stringify(data.slice(0, 120))} (after ${plural(chunks, 'chunk')}). Check baseURL points at a Chat Completions API.`,
    });
  }
}

function streamedError(error: unknown, origin: ResponseOrigin): StreamError {
  const body = isRecord(error) ? error : undefined;
  const said = typeof body?.['message'] === 'string' ? body['message'] : JSON.stringify(error);
  const code = [body?.['code'], body?.['type']].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  return new StreamError({
    ...details(origin),
    rawOutput: error,
    ...(code === undefined ? {} : { providerCode: code }),
    message: `${origin.provider} sent an error mid-stream: ${said}`,
  });
}

function brokenConnection(error: unknown, origin: ResponseOrigin, when: string): ConnectionError {
  return new ConnectionError({
    ...details(origin),
    cause: error,
    message: `The connection to ${origin.provider} broke ${when}: ${describeError(error)}.`,
  });
}

/** `terminated (read ECONNRESET)`: undici's message and the socket's. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

function details(origin: ResponseOrigin): { provider: string; requestId?: string } {
  return {
    provider: origin.provider,
    ...(origin.requestId === undefined ? {} : { requestId: origin.requestId }),
  };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
