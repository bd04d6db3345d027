import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkOutputConfig } from './anthropic-output-format-rules.js';

/** One content block the server is told to produce; it adds ids and signatures. */
export type ScriptedBlock =
  | { readonly type: 'thinking'; readonly thinking: string }
  | { readonly type: 'redacted_thinking' }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly name: string; readonly input: Record<string, unknown> }
  /**
   * A `tool_use` cut off by `max_tokens` (give `stopReason: 'max_tokens'`): streamed, its input
   * stops at `partialJson`, with no `content_block_stop`; as JSON, it is `input`, what the API
   * could parse of it.
   */
  | {
      readonly type: 'cut_tool_use';
      readonly name: string;
      readonly partialJson: string;
      readonly input: Record<string, unknown>;
    };

/** A scripted answer to one request that passed the server's checks. */
export type ScriptedAnswer =
  | {
      readonly type: 'turn';
      readonly content: readonly ScriptedBlock[];
      /** @default 'tool_use' when a block is a tool use, else 'end_turn' */
      readonly stopReason?:
        'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'pause_turn' | 'stop_sequence';
      /** Output tokens reported. @default 50 */
      readonly outputTokens?: number;
      /** Counts to report instead of the server's own (a conformance plan's usage). */
      readonly usage?: Partial<Usage>;
      /** Streaming only: after this many events, send nothing more until the client leaves (at most 10 s). */
      readonly hangAfterEvents?: number;
      /** Streaming only: waits this long before each event. */
      readonly eventDelayMs?: number;
    }
  | {
      readonly type: 'error';
      readonly status: number;
      readonly errorType: string;
      readonly message: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Streaming only: these events as they are, then the end of the body. */
  | { readonly type: 'events'; readonly events: readonly Record<string, unknown>[] };

/** A request the server received, and what it answered. */
export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** The status of the answer. */
  status: number;
  /** The error message, when the server refused the request. */
  refusal?: string;
  /** The usage the server reported (input tokens, cache reads and writes), when it answered 200. */
  usage?: Usage;
}

/** The usage the server reports, counted as Anthropic does. */
export interface Usage {
  readonly input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly output_tokens: number;
}

/** A running fake Messages API. */
export interface FakeAnthropicServer {
  /** The base URL to give the `@anthropic-ai/sdk` client, `http://127.0.0.1:PORT`. */
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
export interface FakeAnthropicServerOptions {
  /** Refuse, as Anthropic does ("prompt is too long"), a request of more input tokens than this. */
  readonly contextWindowTokens?: number;
  /** Answers a request that passed the checks from its body and index, before the queue; `undefined` falls back to the queue. */
  readonly script?: (body: Record<string, unknown>, index: number) => ScriptedAnswer | undefined;
}

type Block = Record<string, unknown>;
type Message = { readonly role: string; readonly content: Block[] };

/** A documented Messages API error answer. */
function invalid(message: string): Extract<ScriptedAnswer, { type: 'error' }> {
  return { type: 'error', status: 400, errorType: 'invalid_request_error', message };
}

/** The tokens a piece of the prompt counts for: a character estimate, as the fake needs no tokenizer. */
function tokensOf(unit: unknown): number {
  return Math.ceil(JSON.stringify(unit).length / 4);
}

function withoutCacheControl(block: Block): Block {
  const { cache_control: _cacheControl, ...rest } = block;
  return rest;
}

/**
 * Starts a fake Anthropic Messages API (`POST /v1/messages`) on 127.0.0.1 that answers with JSON
 * or Server-Sent Events as Anthropic documents them, and refuses with 400 what the API refuses:
 * no `max_tokens`; roles that do not alternate or a first message that is not the user's; a
 * `tool_result` without its `tool_use` in the assistant message right before, a `tool_use` whose
 * results are not all in the next user message, or results after other blocks; a thinking block
 * whose thinking or signature is not byte-for-byte what it issued; thinking blocks that preceded a
 * `tool_use` missing, reordered or altered in the message that carries it; with thinking on, a last
 * assistant turn of a tool loop that does not start with its thinking, or a `tool_choice` that
 * forces a tool; more than 4 `cache_control` breakpoints; a prompt over `contextWindowTokens`; an
 * `output_config` Anthropic refuses (see `checkOutputConfig`).
 *
 * It counts prompt caching as Anthropic reports it: the prefix (tools, then system, then messages)
 * up to each breakpoint is hashed, without the `cache_control` markers; the longest prefix already
 * cached is read (`cache_read_input_tokens`), the prefixes up to later breakpoints are written
 * (`cache_creation_input_tokens`), the rest is `input_tokens`.
 */
export async function startFakeAnthropicServer(
  options: FakeAnthropicServerOptions = {},
): Promise<FakeAnthropicServer> {
  const queue: ScriptedAnswer[] = [];
  const requests: ReceivedRequest[] = [];
  const closed: Array<Promise<void>> = [];
  /** Issued thinking blocks by signature, and redacted ones by data. */
  const issuedThinking = new Map<string, string>();
  /** The thinking blocks (as JSON) that preceded each issued tool use, by tool use id. */
  const thinkingBefore = new Map<string, readonly string[]>();
  const cache = new Set<string>();
  let counter = 0;
  const nextId = (prefix: string): string => `${prefix}_${(++counter).toString().padStart(4, '0')}`;

  const check = (body: Record<string, unknown>): Extract<ScriptedAnswer, { type: 'error' }> | undefined => {
    if (typeof body['max_tokens'] !== 'number') return invalid('max_tokens: Field required');
    const outputProblem = checkOutputConfig(body);
    if (outputProblem !== undefined) return invalid(outputProblem);
    const messages = Array.isArray(body['messages']) ? (body['messages'] as Message[]) : [];
    if (messages.length === 0) return invalid('messages: at least one message is required');
    if (messages[0]!.role !== 'user') return invalid('messages: first message must use the "user" role');
    const thinking = body['thinking'] as Block | undefined;
    const thinkingOn = thinking !== undefined && thinking['type'] !== 'disabled';
    const choice = body['tool_choice'] as Block | undefined;
    if (thinkingOn && choice !== undefined && choice['type'] !== 'auto' && choice['type'] !== 'none') {
      return invalid('Thinking may not be enabled when tool_choice forces tool use.');
    }
    let breakpoints = 0;
    const count = (blocks: unknown): void => {
      if (Array.isArray(blocks))
        for (const block of blocks as Block[]) if (block['cache_control'] !== undefined) breakpoints += 1;
    };
    count(body['tools']);
    count(body['system']);
    for (const message of messages) count(message.content);
    if (breakpoints > 4)
      return invalid(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      if (!Array.isArray(message.content))
        return invalid(`messages.${index}.content: the fake server takes content as blocks only`);
      if (index > 0 && messages[index - 1]!.role === message.role)
        return invalid(
          `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`,
        );
      const content = message.content;
      for (const [position, block] of content.entries()) {
        if (block['type'] === 'text' && block['text'] === '')
          return invalid(`messages.${index}.content.${position}.text: text content blocks must be non-empty`);
        if (block['type'] === 'thinking' || block['type'] === 'redacted_thinking') {
          const key = block['type'] === 'thinking' ? String(block['signature']) : String(block['data']);
          if (issuedThinking.get(key) !== JSON.stringify(withoutCacheControl(block)))
            return invalid(
              `messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block`,
            );
        }
      }
      if (message.role === 'user') {
        const previous = messages[index - 1];
        const toolUses = new Set(
          (previous?.content ?? [])
            .filter((block) => block['type'] === 'tool_use')
            .map((block) => block['id']),
        );
        let seenOther = false;
        for (const block of content) {
          if (block['type'] !== 'tool_result') {
            seenOther = true;
            continue;
          }
          if (!toolUses.has(block['tool_use_id']))
            return invalid(
              `messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block['tool_use_id'])}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
            );
          if (seenOther)
            return invalid(
              `messages.${index}: \`tool_result\` blocks must come first in the content of a user message`,
            );
        }
      } else {
        const next = messages[index + 1];
        const ids = content
          .filter((block) => block['type'] === 'tool_use')
          .map((block) => String(block['id']));
        if (next !== undefined) {
          const answered = new Set(
            next.content
              .filter((block) => block['type'] === 'tool_result')
              .map((block) => block['tool_use_id']),
          );
          const missing = ids.filter((id) => !answered.has(id));
          if (missing.length > 0)
            return invalid(
              `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
            );
        }
        const sentThinking = content
          .filter((block) => block['type'] === 'thinking' || block['type'] === 'redacted_thinking')
          .map((block) => JSON.stringify(withoutCacheControl(block)));
        for (const id of ids) {
          const expected = thinkingBefore.get(id);
          if (expected === undefined || expected.length === 0) continue;
          const position = content.findIndex((block) => block['id'] === id);
          const before = content
            .slice(0, position)
            .filter((block) => block['type'] === 'thinking' || block['type'] === 'redacted_thinking')
            .map((block) => JSON.stringify(withoutCacheControl(block)));
          if (before.join('\n') !== expected.join('\n') || sentThinking.length < expected.length)
            return invalid(
              `messages.${index}.content: the thinking blocks that preceded \`tool_use\` ${id} must be passed back unmodified, in order, before it`,
            );
        }
      }
    }
    if (thinkingOn && messages.at(-1)!.content.some((block) => block['type'] === 'tool_result')) {
      const last = messages.at(-2);
      const first = last?.content[0]?.['type'];
      if (last !== undefined && first !== 'thinking' && first !== 'redacted_thinking')
        return invalid(
          `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`,
        );
    }
    return undefined;
  };

  /** Counts the prompt and its cache reads and writes, and records the prefixes written. */
  const countPrompt = (body: Record<string, unknown>): Omit<Usage, 'output_tokens'> => {
    const units: { readonly unit: unknown; readonly breakpoint: boolean }[] = [];
    const add = (blocks: unknown, prefix: string): void => {
      if (!Array.isArray(blocks)) return;
      for (const block of blocks as Block[])
        units.push({
          unit: [prefix, withoutCacheControl(block)],
          breakpoint: block['cache_control'] !== undefined,
        });
    };
    add(body['tools'], 'tool');
    add(body['system'], 'system');
    for (const message of body['messages'] as Message[]) add(message.content, message.role);
    const hash = createHash('sha256');
    const prefixes: { readonly key: string; readonly tokens: number }[] = [];
    let total = 0;
    for (const { unit, breakpoint } of units) {
      hash.update(JSON.stringify(unit));
      total += tokensOf(unit);
      if (breakpoint) prefixes.push({ key: hash.copy().digest('hex'), tokens: total });
    }
    let read = 0;
    let readIndex = -1;
    prefixes.forEach((prefix, index) => {
      if (cache.has(prefix.key)) {
        read = prefix.tokens;
        readIndex = index;
      }
    });
    const written =
      prefixes.length === 0 || readIndex === prefixes.length - 1 ? read : prefixes.at(-1)!.tokens;
    for (const prefix of prefixes) cache.add(prefix.key);
    return {
      input_tokens: total - written,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: written - read,
    };
  };

  const respond = (
    answer: Extract<ScriptedAnswer, { type: 'turn' }>,
    prompt: Omit<Usage, 'output_tokens'>,
  ): Block => {
    const preceding: string[] = [];
    const content: Block[] = answer.content.map((scripted): Block => {
      switch (scripted.type) {
        case 'thinking': {
          const block = {
            type: 'thinking',
            thinking: scripted.thinking,
            signature: `Eq${randomBytes(24).toString('base64')}`,
          };
          issuedThinking.set(block.signature, JSON.stringify(block));
          preceding.push(JSON.stringify(block));
          return block;
        }
        case 'redacted_thinking': {
          const block = { type: 'redacted_thinking', data: `EmwK${randomBytes(24).toString('base64')}` };
          issuedThinking.set(block.data, JSON.stringify(block));
          preceding.push(JSON.stringify(block));
          return block;
        }
        case 'text':
          return { type: 'text', text: scripted.text };
        case 'tool_use':
        case 'cut_tool_use': {
          const id = nextId('toolu');
          thinkingBefore.set(id, [...preceding]);
          return scripted.type === 'tool_use'
            ? { type: 'tool_use', id, name: scripted.name, input: scripted.input }
            : {
                type: 'tool_use',
                id,
                name: scripted.name,
                input: scripted.input,
                partial_json: scripted.partialJson,
              };
        }
      }
    });
    const stopReason =
      answer.stopReason ?? (content.some((block) => block['type'] === 'tool_use') ? 'tool_use' : 'end_turn');
    return {
      id: nextId('msg'),
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { ...prompt, output_tokens: answer.outputTokens ?? 50, ...answer.usage },
    };
  };

  const server = createServer((request, response) => {
    const index = requests.length;
    closed[index] = new Promise((resolve) => response.on('close', () => resolve()));
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
      const received: ReceivedRequest = { headers: request.headers, body, status: 0 };
      requests.push(received);
      let refused: ScriptedAnswer | undefined =
        request.url === '/v1/messages'
          ? check(body)
          : { type: 'error', status: 404, errorType: 'not_found_error', message: `No route ${request.url}` };
      const prompt = refused === undefined ? countPrompt(body) : undefined;
      if (prompt !== undefined && options.contextWindowTokens !== undefined) {
        const tokens =
          prompt.input_tokens + prompt.cache_read_input_tokens + prompt.cache_creation_input_tokens;
        if (tokens > options.contextWindowTokens)
          refused = invalid(`prompt is too long: ${tokens} tokens > ${options.contextWindowTokens} maximum`);
      }
      const answer: ScriptedAnswer = refused ??
        options.script?.(body, index) ??
        queue.shift() ?? {
          type: 'error',
          status: 500,
          errorType: 'api_error',
          message: `fake server: no scripted answer left for request ${index}`,
          headers: { 'x-should-retry': 'false' },
        };
      const requestId = `req_${String(index).padStart(4, '0')}`;
      if (answer.type === 'error') {
        received.status = answer.status;
        received.refusal = answer.message;
        response.writeHead(answer.status, {
          'content-type': 'application/json',
          'request-id': requestId,
          ...answer.headers,
        });
        response.end(
          JSON.stringify({ type: 'error', error: { type: answer.errorType, message: answer.message } }),
        );
        return;
      }
      received.status = 200;
      if (answer.type === 'events') {
        void writeEvents(response, requestId, answer.events, undefined);
        return;
      }
      const message = respond(answer, prompt!);
      received.usage = message['usage'] as Usage;
      if (body['stream'] !== true) {
        response.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
        response.end(JSON.stringify(nonStreamed(message)));
        return;
      }
      void writeEvents(
        response,
        requestId,
        streamEvents(message),
        answer.hangAfterEvents,
        answer.eventDelayMs,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}`,
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

/** The message as a JSON answer: a cut-off tool use has the input the API could parse of it. */
function nonStreamed(message: Block): Block {
  const content = (message['content'] as Block[]).map((block) => {
    if (block['partial_json'] === undefined) return block;
    const { partial_json: _partial, ...rest } = block;
    return rest;
  });
  return { ...message, content };
}

/** Splits a string in two (or keeps it whole when short), as the API streams text in pieces. */
function pieces(text: string): string[] {
  if (text.length < 2) return [text];
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

/** The Server-Sent Events Anthropic streams for `message`. */
export function streamEvents(message: Block): Block[] {
  const content = message['content'] as Block[];
  const usage = message['usage'] as Usage;
  const events: Block[] = [
    {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
    { type: 'ping' },
  ];
  const cut = content.findIndex((block) => block['partial_json'] !== undefined);
  content.forEach((block, index) => {
    if (cut !== -1 && index > cut) return;
    switch (block['type']) {
      case 'thinking':
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        });
        for (const piece of pieces(String(block['thinking'])))
          if (piece !== '')
            events.push({
              type: 'content_block_delta',
              index,
              delta: { type: 'thinking_delta', thinking: piece },
            });
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: block['signature'] },
        });
        break;
      case 'redacted_thinking':
        events.push({ type: 'content_block_start', index, content_block: block });
        break;
      case 'text':
        events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        for (const piece of pieces(String(block['text'])))
          events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
        break;
      case 'tool_use': {
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block['id'], name: block['name'], input: {} },
        });
        const json =
          typeof block['partial_json'] === 'string' ? block['partial_json'] : JSON.stringify(block['input']);
        for (const piece of pieces(json))
          events.push({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: piece },
          });
        if (index === cut) return;
        break;
      }
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: message['stop_reason'], stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
    { type: 'message_stop' },
  );
  return events;
}

async function writeEvents(
  response: ServerResponse,
  requestId: string,
  events: readonly Block[],
  hangAfterEvents: number | undefined,
  eventDelayMs = 0,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': requestId,
  });
  let sent = 0;
  for (const event of events) {
    if (response.destroyed) return;
    if (hangAfterEvents !== undefined && sent >= hangAfterEvents) {
      await wait(10_000, response);
      break;
    }
    if (eventDelayMs > 0) await wait(eventDelayMs, response);
    if (response.destroyed) return;
    response.write(`event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`);
    sent += 1;
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
