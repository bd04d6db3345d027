import type { ClientConnection } from './create-client.js';
import { StreamError } from '../../errors/stream-error.js';
import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import { isRecord } from './normalize-usage.js';
import { originFields } from './parse-completion.js';
import type { ResponseOrigin } from './parse-completion.js';
import { brokenConnection } from './read-body.js';

/** What {@link SseChunkReader.next} returns once the stream has ended. */
export const streamEnd: unique symbol = Symbol('stream end');

/**
 * Reads the Server-Sent Events of a streamed chat completion, decoded by the `openai` client's own
 * SSE parser, one parsed chunk per `next()`, and stops at `data: [DONE]`. Unlike the client's
 * `Stream`, it tells a `[DONE]` from a body that just ended (`done`), and it prints nothing. A
 * class rather than a generator so the adapter's loop reads a chunk with one await.
 */
export class SseChunkReader {
  /** Data events parsed so far (`[DONE]` excluded). */
  chunks = 0;
  /** True once `data: [DONE]` arrived. */
  done = false;
  readonly #events: AsyncIterator<{ readonly event: string | null; readonly data: string }>;
  readonly #origin: ResponseOrigin;
  readonly #onChunk: () => void;

  /**
   * `onChunk` runs on each chunk, not on comments such as `: keep-alive`; `decodeEvents` is the
   * `openai` package's SSE parser.
   */
  constructor(
    response: Response,
    origin: ResponseOrigin,
    onChunk: () => void,
    decodeEvents: ClientConnection['decodeEvents'],
  ) {
    // The controller is aborted by the decoder only when there is no body at all.
    this.#events = decodeEvents(response, new AbortController())[Symbol.asyncIterator]();
    this.#origin = origin;
    this.#onChunk = onChunk;
  }

  /**
   * The next chunk's parsed data, or {@link streamEnd}.
   *
   * @throws {UnexpectedResponseError} when an event's data is not JSON; not retryable.
   * @throws {StreamError} when the provider sends an `error` object; retryable.
   * @throws {ConnectionError} when the connection breaks mid-stream; retryable.
   */
  async next(): Promise<unknown> {
    if (this.done) return streamEnd;
    let step: IteratorResult<{ readonly event: string | null; readonly data: string }>;
    try {
      step = await this.#events.next();
    } catch (error) {
      throw brokenConnection(
        error,
        this.#origin,
        `while reading the stream after ${plural(this.chunks, 'chunk')}`,
      );
    }
    if (step.done === true) return streamEnd;
    const { event, data } = step.value;
    if (data.startsWith('[DONE]')) {
      this.done = true;
      return streamEnd;
    }
    const parsed = parseEventData(data, this.#origin, this.chunks);
    if (isRecord(parsed) && parsed['error'] !== undefined && parsed['error'] !== null) {
      throw streamedError(parsed['error'], this.#origin);
    }
    if (event === 'error') throw streamedError(parsed, this.#origin);
    this.chunks += 1;
    this.#onChunk();
    return parsed;
  }

  /** Stops reading and cancels the body, if it has not ended. */
  async close(): Promise<void> {
    await this.#events.return?.().catch(() => undefined);
  }
}

function parseEventData(data: string, origin: ResponseOrigin, chunks: number): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new UnexpectedResponseError({
      ...originFields(origin),
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
    ...originFields(origin),
    rawOutput: error,
    ...(code === undefined ? {} : { providerCode: code }),
    message: `${origin.provider} sent an error mid-stream: ${said}`,
  });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
