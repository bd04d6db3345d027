import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkResponsesTextFormat } from '../openai-response-format-rules.js';
import { streamEvents } from './responses-stream-events.js';

/** One output item the server is told to produce; it adds the ids, the status and the encrypted content. */
export type ScriptedItem =
  | { readonly type: 'reasoning'; readonly summary?: readonly string[] }
  | { readonly type: 'message'; readonly text: string }
  | { readonly type: 'function_call'; readonly name: string; readonly arguments: string };

/** A scripted answer to one request that passed the server's checks. */
export type ScriptedAnswer =
  | {
      readonly type: 'turn';
      readonly output: readonly ScriptedItem[];
      readonly usage?: Record<string, unknown>;
      /** Ends the response `incomplete` for this reason. */
      readonly incomplete?: 'max_output_tokens' | 'content_filter';
      /** Streaming only: after this many events, send nothing more until the client leaves (at most 10 s). */
      readonly hangAfterEvents?: number;
      /** Waits this long before answering (at most until the client leaves). */
      readonly delayMs?: number;
      /** Streaming only: waits this long before each event. */
      readonly eventDelayMs?: number;
      /** Answers JSON even to a streaming request, as some compatible servers do. */
      readonly json?: boolean;
    }
  | {
      readonly type: 'error';
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Streaming only: these events as they are, then the end of the body. */
  | { readonly type: 'events'; readonly events: readonly Record<string, unknown>[] };

/** A request the server received, and what it answered. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** The status of the answer. */
  status: number;
  /** The error message, when the server refused the request. */
  refusal?: string;
}

/** A running fake Responses server. */
export interface FakeResponsesServer {
  /** The base URL to give the `openai` client, `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[];
  /** Adds answers, served in order to the requests that pass the checks. */
  enqueue(...answers: ScriptedAnswer[]): void;
  /** Resolves when the client has closed the connection of request `index` (zero-based). */
  disconnected(index: number): Promise<void>;
  close(): Promise<void>;
}

/** Settings of the server. */
export interface FakeResponsesServerOptions {
  /** Refuse, as OpenAI does, an input whose JSON is longer than this many characters (the model's "context window"). */
  readonly contextWindowCharacters?: number;
  /**
   * Answers a request that passed the checks from its body (and its zero-based index among all the
   * requests received), before the queue of {@link FakeResponsesServer.enqueue}; `undefined` falls
   * back to the queue.
   */
  readonly script?: (body: Record<string, unknown>, index: number) => ScriptedAnswer | undefined;
}

type Item = Record<string, unknown>;

/** What the server remembers of an item it issued, to verify it when it comes back. */
interface Issued {
  readonly item: Item;
  readonly store: boolean;
  /** The id of the item that followed it in its response. */
  readonly follower: string | undefined;
  /** The reasoning item that came right before it in its response. */
  readonly reasoning: string | undefined;
}

/** A documented Responses API error body. */
function refusal(status: number, message: string, code: string | null, param = 'input'): ScriptedAnswer {
  return {
    type: 'error',
    status,
    body: { error: { message, type: 'invalid_request_error', param, code } },
  };
}

/**
 * Starts a fake OpenAI Responses API (`POST /v1/responses`) on 127.0.0.1 that answers with JSON or
 * Server-Sent Events as OpenAI documents them, and enforces OpenAI's rules on what comes back the
 * way the real API does: a reasoning item must be followed by the item that followed it (400), a
 * reasoning item sent by id only under `store: false` is not found (404), encrypted content must be
 * byte-for-byte what was issued (400), an item issued after a reasoning item needs that item right
 * before it (400), a `function_call_output` needs its `function_call` and the other way round (400),
 * `previous_response_id` must name a stored response (400), a `text.format` OpenAI refuses (see
 * `checkResponsesTextFormat`) gets its 400, and an input longer than the context window is refused
 * with `context_length_exceeded` (400).
 */
export async function startFakeResponsesServer(
  options: FakeResponsesServerOptions = {},
): Promise<FakeResponsesServer> {
  const queue: ScriptedAnswer[] = [];
  const requests: ReceivedRequest[] = [];
  const issued = new Map<string, Issued>();
  const stored = new Map<string, Item[]>();
  const closed: Array<Promise<void>> = [];
  let counter = 0;
  const nextId = (prefix: string): string => `${prefix}_${(++counter).toString().padStart(4, '0')}`;

  const check = (body: Record<string, unknown>): ScriptedAnswer | undefined => {
    const format = checkResponsesTextFormat(body);
    if (format !== undefined) return refusal(400, format.message, null, format.param);
    const input = Array.isArray(body['input']) ? (body['input'] as Item[]) : [];
    let history: Item[] = [];
    const previous = body['previous_response_id'];
    if (typeof previous === 'string') {
      const chain = stored.get(previous);
      if (chain === undefined)
        return refusal(
          400,
          `Previous response with id '${previous}' not found.`,
          'previous_response_not_found',
          'previous_response_id',
        );
      history = chain;
    }
    const all = [...history, ...input];
    if (
      options.contextWindowCharacters !== undefined &&
      JSON.stringify(all).length > options.contextWindowCharacters
    ) {
      return refusal(
        400,
        'Your input exceeds the context window of this model. Please adjust your input and try again.',
        'context_length_exceeded',
      );
    }
    for (let index = 0; index < input.length; index++) {
      const item = input[index]!;
      const type = item['type'] ?? (item['role'] === undefined ? undefined : 'message');
      const id = typeof item['id'] === 'string' ? item['id'] : undefined;
      const known = id === undefined ? undefined : issued.get(id);
      if (type === 'reasoning') {
        if (id === undefined || known === undefined)
          return refusal(404, `Item with id '${String(id)}' not found.`, null);
        const encrypted = item['encrypted_content'];
        if (typeof encrypted !== 'string') {
          if (!known.store)
            return refusal(
              404,
              `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
              null,
            );
        } else if (encrypted !== known.item['encrypted_content']) {
          return refusal(
            400,
            `The encrypted content for item ${id} could not be verified.`,
            'invalid_encrypted_content',
          );
        }
        if (known.follower !== undefined && input[index + 1]?.['id'] !== known.follower)
          return refusal(
            400,
            `Item '${id}' of type 'reasoning' was provided without its required following item.`,
            null,
          );
      }
      if (
        known !== undefined &&
        known.reasoning !== undefined &&
        input[index - 1]?.['id'] !== known.reasoning
      ) {
        return refusal(
          400,
          `Item '${id}' of type '${String(type)}' was provided without its required 'reasoning' item: '${known.reasoning}'.`,
          null,
        );
      }
      if (type === 'function_call_output') {
        const callId = item['call_id'];
        const before = [...history, ...input.slice(0, index)];
        if (!before.some((other) => other['type'] === 'function_call' && other['call_id'] === callId))
          return refusal(
            400,
            `No tool call found for function call output with call_id ${String(callId)}.`,
            null,
          );
      }
      if (type === 'function_call') {
        const callId = item['call_id'];
        if (
          !input
            .slice(index + 1)
            .some((other) => other['type'] === 'function_call_output' && other['call_id'] === callId)
        )
          return refusal(400, `No tool output found for function call ${String(callId)}.`, null);
      }
    }
    return undefined;
  };

  const respond = (
    answer: Extract<ScriptedAnswer, { type: 'turn' }>,
    body: Record<string, unknown>,
    input: Item[],
  ): Item => {
    const store = body['store'] !== false;
    const include = Array.isArray(body['include']) ? body['include'] : [];
    const output: Item[] = answer.output.map((scripted) => {
      if (scripted.type === 'reasoning') {
        return {
          id: nextId('rs'),
          type: 'reasoning',
          summary: (scripted.summary ?? []).map((text) => ({ type: 'summary_text', text })),
          ...(include.includes('reasoning.encrypted_content')
            ? { encrypted_content: `gAAAAB${randomBytes(24).toString('base64')}` }
            : {}),
        };
      }
      if (scripted.type === 'message') {
        return {
          id: nextId('msg'),
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: scripted.text, annotations: [], logprobs: [] }],
        };
      }
      return {
        id: nextId('fc'),
        type: 'function_call',
        status: 'completed',
        arguments: scripted.arguments,
        call_id: nextId('call'),
        name: scripted.name,
      };
    });
    output.forEach((item, index) => {
      const before = output[index - 1];
      issued.set(String(item['id']), {
        item,
        store,
        follower: output[index + 1]?.['id'] as string | undefined,
        reasoning: before?.['type'] === 'reasoning' ? (before['id'] as string) : undefined,
      });
    });
    const id = nextId('resp');
    if (store) stored.set(id, [...input, ...output]);
    return {
      id,
      object: 'response',
      created_at: 1_760_000_000,
      status: answer.incomplete === undefined ? 'completed' : 'incomplete',
      error: null,
      incomplete_details: answer.incomplete === undefined ? null : { reason: answer.incomplete },
      instructions: null,
      max_output_tokens: body['max_output_tokens'] ?? null,
      model: 'gpt-5-mini-2025-08-07',
      output,
      parallel_tool_calls: body['parallel_tool_calls'] ?? true,
      previous_response_id: body['previous_response_id'] ?? null,
      reasoning: { effort: 'medium', summary: null },
      store,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: body['tool_choice'] ?? 'auto',
      tools: body['tools'] ?? [],
      truncation: 'disabled',
      usage: answer.usage ?? {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 50,
        output_tokens_details: { reasoning_tokens: 20 },
        total_tokens: 150,
      },
      metadata: {},
    };
  };

  const server = createServer((request, response) => {
    const index = requests.length;
    closed[index] = new Promise((resolve) => response.on('close', () => resolve()));
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', async () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
      const received: ReceivedRequest = {
        path: request.url ?? '',
        headers: request.headers,
        body,
        status: 0,
      };
      requests.push(received);
      const refused =
        request.url === '/v1/responses' ? check(body) : refusal(404, `No route ${request.url}`, null);
      const answer = refused ??
        options.script?.(body, index) ??
        queue.shift() ?? {
          type: 'error' as const,
          status: 500,
          body: {
            error: { message: `fake server: no scripted answer left for request ${index}`, type: 'test' },
          },
          headers: { 'x-should-retry': 'false' },
        };
      if (answer.type === 'error') {
        received.status = answer.status;
        const error = (answer.body as { error?: { message?: string } }).error;
        if (error?.message !== undefined) received.refusal = error.message;
        response.writeHead(answer.status, {
          'content-type': 'application/json',
          'x-request-id': `req_${index}`,
          ...answer.headers,
        });
        response.end(JSON.stringify(answer.body));
        return;
      }
      received.status = 200;
      if (answer.type === 'events') {
        void writeEvents(response, answer.events, undefined);
        return;
      }
      const input = Array.isArray(body['input']) ? (body['input'] as Item[]) : [];
      const chain =
        typeof body['previous_response_id'] === 'string'
          ? (stored.get(body['previous_response_id']) ?? [])
          : [];
      const result = respond(answer, body, [...chain, ...input]);
      if (answer.delayMs !== undefined) await wait(answer.delayMs, response);
      if (response.destroyed) return;
      if (body['stream'] !== true || answer.json === true) {
        response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${index}` });
        response.end(JSON.stringify(result));
        return;
      }
      void writeEvents(response, streamEvents(result), answer.hangAfterEvents, answer.eventDelayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...answers) => void queue.push(...answers),
    disconnected: async (index) => {
      for (let waited = 0; closed[index] === undefined && waited < 5000; waited += 5) await wait(5);
      return closed[index];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function writeEvents(
  response: ServerResponse,
  events: readonly Record<string, unknown>[],
  hangAfterEvents: number | undefined,
  eventDelayMs = 0,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-request-id': 'req_stream',
  });
  let sequence = 0;
  for (const event of events) {
    if (response.destroyed) return;
    if (hangAfterEvents !== undefined && sequence >= hangAfterEvents) {
      await wait(10_000, response);
      break;
    }
    if (eventDelayMs > 0) await wait(eventDelayMs, response);
    if (response.destroyed) return;
    response.write(
      `event: ${String(event['type'])}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`,
    );
  }
  if (!response.destroyed) response.end();
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
