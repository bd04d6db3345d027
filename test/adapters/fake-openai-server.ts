import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkChatResponseFormat } from './openai-response-format-rules.js';

/** One piece of a scripted SSE answer. */
export type FakeSseItem =
  /** Sent as `data: <JSON>\n\n`. */
  | { readonly data: unknown }
  /** Sent as `: <text>\n\n`, like DeepSeek's `: keep-alive`. */
  | { readonly comment: string }
  /** Written verbatim. */
  | { readonly raw: string }
  /** Waits before the next item. */
  | { readonly delayMs: number }
  /** Resets the connection (TCP RST) once what was sent so far has had 20 ms to arrive; nothing more is sent. */
  | { readonly reset: true };

/** A scripted answer to one request. */
export type FakeResponse =
  | {
      readonly type: 'json';
      /** @default 200 */
      readonly status?: number;
      /** An object is sent as JSON; a string verbatim. */
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
      /** Waits before answering. @default 0 */
      readonly delayMs?: number;
      /** Sends this many bytes of the body (after a `content-length` for all of it), then resets the connection (TCP RST). */
      readonly resetAfterBytes?: number;
      /** Sends the body one byte every `dripMs` milliseconds. */
      readonly dripMs?: number;
    }
  | {
      readonly type: 'sse';
      readonly items: readonly FakeSseItem[];
      readonly headers?: Readonly<Record<string, string>>;
      /** Ends with `data: [DONE]`. @default true */
      readonly done?: boolean;
    };

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body, parsed; the raw text when it is not JSON. */
  readonly body: unknown;
}

/** A running fake Chat Completions server. */
export interface FakeOpenAIServer {
  /** The base URL to give the `openai` client, `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Adds answers, served in order, one per request. */
  enqueue(...responses: FakeResponse[]): void;
  /** Resolves when the client has closed the connection of request `index` (zero-based). */
  disconnected(index: number): Promise<void>;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** Builds a Chat Completions JSON body with one choice, as OpenAI documents it; `finish_reason` goes on the choice. */
export function completion(
  message: Record<string, unknown>,
  extra: { readonly finish_reason?: string; readonly [key: string]: unknown } = {},
): Record<string, unknown> {
  const { finish_reason: finishReason = 'stop', ...rest } = extra;
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_750_000_000,
    model: 'test-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, ...message },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    ...rest,
  };
}

/** Builds one `chat.completion.chunk` with a delta and an optional finish reason. */
export function chunk(
  delta: Record<string, unknown> | null,
  extra: { readonly finish_reason?: string | null; readonly usage?: unknown } = {},
): { readonly data: unknown } {
  return {
    data: {
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 1_750_000_000,
      model: 'test-model',
      choices:
        delta === null
          ? []
          : [{ index: 0, delta, logprobs: null, finish_reason: extra.finish_reason ?? null }],
      ...(extra.usage === undefined ? {} : { usage: extra.usage }),
    },
  };
}

/**
 * Starts a fake Chat Completions server on 127.0.0.1 (port 0) that answers each request with
 * the next scripted response (JSON or SSE) and records every request. With nothing left to
 * serve it answers 500 with a message saying so. A `response_format` OpenAI would refuse (see
 * `checkChatResponseFormat`) gets OpenAI's 400, and takes no scripted response.
 */
export async function startFakeOpenAIServer(
  responses: readonly FakeResponse[] = [],
): Promise<FakeOpenAIServer> {
  const queue = [...responses];
  const requests: RecordedRequest[] = [];
  const closed: Array<{ promise: Promise<void>; resolve: () => void }> = [];
  let received = 0;
  const server: Server = createServer((request, response) => {
    const index = received++;
    let resolveClosed!: () => void;
    closed[index] = {
      promise: new Promise<void>((resolve) => (resolveClosed = resolve)),
      resolve: resolveClosed,
    };
    response.on('close', () => closed[index]?.resolve());
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      requests[index] = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: parseBody(text),
      };
      const refused = isRecord(requests[index].body)
        ? checkChatResponseFormat(requests[index].body)
        : undefined;
      if (refused !== undefined) {
        void serve(
          {
            type: 'json',
            status: 400,
            body: {
              error: {
                message: refused.message,
                type: 'invalid_request_error',
                param: refused.param,
                code: null,
              },
            },
          },
          response,
        );
        return;
      }
      const next = queue.shift() ?? {
        type: 'json',
        status: 500,
        body: {
          error: { message: `fake server: no scripted response left for request ${index}`, type: 'test' },
        },
        headers: { 'x-should-retry': 'false' },
      };
      void serve(next, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    enqueue: (...more) => void queue.push(...more),
    disconnected: async (index) => {
      while (closed[index] === undefined) await wait(5);
      return closed[index].promise;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(scripted: FakeResponse, response: ServerResponse): Promise<void> {
  if (scripted.type === 'json') {
    if (scripted.delayMs !== undefined) await wait(scripted.delayMs, response);
    if (response.destroyed) return;
    const text = typeof scripted.body === 'string' ? scripted.body : JSON.stringify(scripted.body);
    const bytes = Buffer.from(text, 'utf8');
    response.writeHead(scripted.status ?? 200, {
      'content-type': 'application/json',
      'content-length': String(bytes.length),
      ...scripted.headers,
    });
    if (scripted.resetAfterBytes !== undefined) {
      response.write(bytes.subarray(0, scripted.resetAfterBytes));
      await wait(20, response);
      response.socket?.resetAndDestroy();
      return;
    }
    if (scripted.dripMs === undefined) {
      response.end(bytes);
      return;
    }
    for (const byte of bytes) {
      if (response.destroyed) return;
      response.write(Buffer.of(byte));
      await wait(scripted.dripMs, response);
    }
    if (!response.destroyed) response.end();
    return;
  }
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...scripted.headers,
  });
  for (const item of scripted.items) {
    if (response.destroyed) return;
    if ('delayMs' in item) await wait(item.delayMs, response);
    else if ('reset' in item) {
      // Let the bytes written so far reach the client before the RST.
      await wait(20, response);
      response.socket?.resetAndDestroy();
      return;
    } else if ('comment' in item) response.write(`: ${item.comment}\n\n`);
    else if ('raw' in item) response.write(item.raw);
    else response.write(`data: ${JSON.stringify(item.data)}\n\n`);
  }
  if (response.destroyed) return;
  if (scripted.done ?? true) response.write('data: [DONE]\n\n');
  response.end();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Waits, or stops waiting as soon as the client drops `response`. */
function wait(milliseconds: number, response?: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      response?.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    response?.once('close', done);
  });
}
