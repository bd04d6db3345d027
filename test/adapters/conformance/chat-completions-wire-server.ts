import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import type { Usage } from '../../../src/index.js';
import { checkChatResponseFormat } from '../openai-response-format-rules.js';
import type { Plan, PlannedTurn } from './conformance-plan.js';
import { waitForStalledStream } from './conformance-server.js';
import type { ConformanceServer, InjectedFailure } from './conformance-server.js';

/**
 * Which Chat Completions provider the server plays:
 * - `openai`: no reasoning on the wire (only `reasoning_tokens` in usage), cached tokens in
 *   `prompt_tokens_details`, and OpenAI's schema check of messages (an unknown field is a 400).
 * - `deepseek`: thinking mode; `reasoning_content` on every turn, and DeepSeek's 400 when a request
 *   with tools sends an earlier assistant message without it.
 * - `gateway`: an OpenAI-compatible gateway in front of Gemini: `reasoning_details` and
 *   `extra_content` on the message, a thought signature in each tool call's `extra_content`, and
 *   Gemini's 400 when a signature does not come back as it was sent.
 */
export type ChatCompletionsProfile = 'openai' | 'deepseek' | 'gateway';

const fieldsOnTheWire: Record<ChatCompletionsProfile, ReadonlySet<string>> = {
  openai: new Set(['role', 'content', 'tool_calls', 'name', 'refusal', 'audio', 'function_call']),
  deepseek: new Set(['role', 'content', 'tool_calls', 'name', 'reasoning_content', 'prefix']),
  gateway: new Set(['role', 'content', 'tool_calls', 'name', 'reasoning_details', 'extra_content']),
};

const toolCallFields: Record<ChatCompletionsProfile, ReadonlySet<string>> = {
  openai: new Set(['id', 'type', 'function']),
  deepseek: new Set(['id', 'type', 'function']),
  gateway: new Set(['id', 'type', 'function', 'extra_content']),
};

/**
 * Starts a Chat Completions server on 127.0.0.1 (a free port) that plays `profile`: it answers
 * each request with the plan's turn for it (the number of assistant messages the request holds),
 * as JSON or as a stream, and answers 400 as the real API does when the request breaks a rule.
 * Beyond the provider's own checks, it answers 400 when an earlier turn it returned comes back
 * with its reasoning or provider fields changed: the transcript must carry them byte for byte.
 */
export async function startChatCompletionsServer(
  profile: ChatCompletionsProfile,
  plan: Plan,
): Promise<ConformanceServer> {
  const requests: Record<string, unknown>[] = [];
  const rejections: string[] = [];
  const issuedUsage: Usage[] = [];
  const failures: InjectedFailure[] = [];
  /** Each turn's message as returned, by turn. */
  const issued = new Map<number, Record<string, unknown>>();
  let stalledClosed: Promise<void> | undefined;

  const server: Server = createServer((request, response) => {
    void readJson(request).then((body) => {
      requests.push(body);
      const failure = failures.shift();
      if (failure !== undefined) {
        const type = failure.status === 429 ? 'rate_limit_error' : 'server_error';
        sendJson(
          response,
          failure.status,
          { error: { message: failure.message ?? type, type } },
          failure.headers,
        );
        return;
      }
      const broken = brokenRule(profile, body, issued);
      if (broken !== undefined) {
        rejections.push(broken);
        sendJson(response, 400, {
          error: {
            message: broken,
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_request_error',
          },
        });
        return;
      }
      const messages = body['messages'] as Record<string, unknown>[];
      const turn = messages.filter((message) => message['role'] === 'assistant').length;
      const planned = plan(turn);
      const message = answer(profile, turn, planned);
      // About four characters a token, as the context window's estimate, which the usage corrects.
      const counted = normalizedUsage(turn, Math.ceil(JSON.stringify(messages).length / 4));
      const usage = usageOf(profile, counted);
      issued.set(turn, message);
      if (planned.stall !== true) issuedUsage.push(counted);
      if (body['stream'] === true) {
        const done = stream(profile, message, usage, planned.stall === true, response);
        if (planned.stall === true) stalledClosed = done;
        return;
      }
      sendJson(response, 200, {
        id: `chatcmpl-${turn}`,
        object: 'chat.completion',
        created: 1_750_000_000,
        model: String(body['model']),
        choices: [
          {
            index: 0,
            message,
            logprobs: null,
            finish_reason: planned.calls === undefined ? 'stop' : 'tool_calls',
          },
        ],
        usage,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    rejections,
    issuedUsage,
    sentTranscript: (index) => {
      const messages = (requests.at(index)?.['messages'] ?? []) as Record<string, unknown>[];
      return {
        toolResults: new Map(
          messages.flatMap((message) =>
            message['role'] === 'tool' ? [[String(message['tool_call_id']), String(message['content'])]] : [],
          ),
        ),
        assistantTurns: messages.filter((message) => message['role'] === 'assistant').length,
      };
    },
    failNext: (...more) => void failures.push(...more),
    stalledStreamClosed: () => waitForStalledStream(() => stalledClosed),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The assistant message the provider returns for a planned turn. */
function answer(
  profile: ChatCompletionsProfile,
  turn: number,
  planned: PlannedTurn,
): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: planned.content ?? null };
  if (profile === 'openai') message['refusal'] = null;
  if (profile === 'deepseek') message['reasoning_content'] = `Turn ${turn}: what do I know, what is missing?`;
  if (profile === 'gateway') {
    message['reasoning_details'] = [
      {
        type: 'reasoning.encrypted',
        data: `ZW5jcnlwdGVkLXR1cm4t${turn}==`,
        id: `rd_${turn}`,
        format: 'google-gemini-v1',
        index: 0,
      },
    ];
    message['extra_content'] = { gateway: { turn, route: ['google', 'vertex'], cached: turn % 2 === 0 } };
  }
  if (planned.calls !== undefined) {
    message['tool_calls'] = planned.calls.map((call, index) => ({
      id: `call_${turn}_${index}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      // Gemini signs the first function call of a turn.
      ...(profile === 'gateway' && index === 0
        ? { extra_content: { google: { thought_signature: `c2lnLXR1cm4t${turn}-${'x'.repeat(turn)}` } } }
        : {}),
    }));
  }
  return message;
}

/** The provider's usage of a turn: cached prompt tokens and reasoning tokens, in its own names. */
function usageOf(profile: ChatCompletionsProfile, counted: Usage): Record<string, unknown> {
  const { promptTokens, completionTokens, reasoningTokens, cachedPromptTokens } = counted;
  const base = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
  return profile === 'deepseek'
    ? {
        ...base,
        prompt_cache_hit_tokens: cachedPromptTokens,
        prompt_cache_miss_tokens: promptTokens - cachedPromptTokens,
      }
    : { ...base, prompt_tokens_details: { cached_tokens: cachedPromptTokens } };
}

/** The usage the fake servers issue for a turn, in the adapters' normalised form. */
export function normalizedUsage(turn: number, promptTokens: number): Usage {
  const completionTokens = 20 + turn;
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    reasoningTokens: 8 + turn,
    cachedPromptTokens: Math.floor(promptTokens / 2),
  };
}

/**
 * The first rule the request breaks, as the provider words its 400, or `undefined`. Checked: the
 * fields a message may carry, a `response_format` OpenAI refuses (and on DeepSeek any
 * `json_schema`), the pairing of tool calls and results (OpenAI's wording), each
 * provider's reasoning rule, and that earlier turns come back as they were returned.
 */
function brokenRule(
  profile: ChatCompletionsProfile,
  body: Record<string, unknown>,
  issued: ReadonlyMap<number, Record<string, unknown>>,
): string | undefined {
  const messages = body['messages'];
  if (!Array.isArray(messages)) return "Missing required parameter: 'messages'.";
  const format = checkChatResponseFormat(body);
  if (format !== undefined) return format.message;
  if (
    profile === 'deepseek' &&
    (body['response_format'] as { type?: unknown } | undefined)?.type === 'json_schema'
  )
    return 'This response_format type is unavailable now';
  const hasTools = Array.isArray(body['tools']) && body['tools'].length > 0;
  if (profile === 'deepseek' && !isDeepStrictEqual(body['thinking'], { type: 'enabled' }))
    return 'The conformance server plays DeepSeek in thinking mode: send thinking: { type: "enabled" }.';
  let open = new Set<string>();
  let turn = 0;
  for (const [index, message] of (messages as Record<string, unknown>[]).entries()) {
    const role = message['role'];
    if (role === 'tool') {
      const id = String(message['tool_call_id']);
      if (!open.delete(id))
        return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
      continue;
    }
    if (open.size > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`;
    if (role !== 'assistant') continue;
    for (const key of Object.keys(message)) {
      if (!fieldsOnTheWire[profile].has(key))
        return `Additional properties are not allowed ('${key}' was unexpected) - 'messages.${index}'`;
    }
    const toolCalls = Array.isArray(message['tool_calls'])
      ? (message['tool_calls'] as Record<string, unknown>[])
      : [];
    for (const [callIndex, toolCall] of toolCalls.entries()) {
      for (const key of Object.keys(toolCall)) {
        if (!toolCallFields[profile].has(key))
          return `Additional properties are not allowed ('${key}' was unexpected) - 'messages.${index}.tool_calls.${callIndex}'`;
      }
    }
    open = new Set(toolCalls.map((toolCall) => String(toolCall['id'])));
    if (profile === 'deepseek' && hasTools && typeof message['reasoning_content'] !== 'string')
      return 'The `reasoning_content` in the thinking mode must be passed back to the API.';
    const returned = issued.get(turn);
    turn += 1;
    if (returned === undefined) continue;
    const changed = changedReturnedField(profile, message, returned, toolCalls);
    if (changed !== undefined) return `${changed} (messages.${index})`;
  }
  return undefined;
}

/** What of a returned turn came back changed, in the provider's words where it has them. */
function changedReturnedField(
  profile: ChatCompletionsProfile,
  sent: Record<string, unknown>,
  returned: Record<string, unknown>,
  toolCalls: readonly Record<string, unknown>[],
): string | undefined {
  if (profile === 'deepseek' && sent['reasoning_content'] !== returned['reasoning_content'])
    return 'The `reasoning_content` of an assistant message is not what the API returned for it.';
  if (profile !== 'gateway') return undefined;
  const returnedCalls = (returned['tool_calls'] ?? []) as Record<string, unknown>[];
  for (const [position, call] of returnedCalls.entries()) {
    if (call['extra_content'] === undefined) continue;
    const echoed = toolCalls.find((toolCall) => toolCall['id'] === call['id']);
    if (!isDeepStrictEqual(echoed?.['extra_content'], call['extra_content'])) {
      const name = String((call['function'] as Record<string, unknown>)['name']);
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${position + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
    }
  }
  for (const field of ['reasoning_details', 'extra_content']) {
    if (!isDeepStrictEqual(sent[field], returned[field]))
      return `The assistant message's ${field} must be sent back exactly as it was returned.`;
  }
  return undefined;
}

/** Streams `message` as the provider does: reasoning, content and argument pieces, usage last. */
async function stream(
  profile: ChatCompletionsProfile,
  message: Record<string, unknown>,
  usage: Record<string, unknown>,
  stall: boolean,
  response: ServerResponse,
): Promise<void> {
  const closed = new Promise<void>((resolve) => response.once('close', resolve));
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (delta: Record<string, unknown> | null, extra: Record<string, unknown> = {}): void => {
    response.write(
      `data: ${JSON.stringify({
        id: 'chatcmpl-stream',
        object: 'chat.completion.chunk',
        created: 1_750_000_000,
        model: 'conformance',
        choices:
          delta === null
            ? []
            : [{ index: 0, delta, logprobs: null, finish_reason: extra['finish_reason'] ?? null }],
        ...(extra['usage'] === undefined ? {} : { usage: extra['usage'] }),
      })}\n\n`,
    );
  };
  send({ role: 'assistant', content: profile === 'openai' ? null : '' });
  const reasoning = message['reasoning_content'];
  if (typeof reasoning === 'string')
    for (const piece of halves(reasoning)) send({ reasoning_content: piece });
  if (message['reasoning_details'] !== undefined) send({ reasoning_details: message['reasoning_details'] });
  if (message['extra_content'] !== undefined) send({ extra_content: message['extra_content'] });
  const content = message['content'];
  if (typeof content === 'string') {
    const pieces = content.match(/.{1,6}/gs) ?? [];
    for (const [index, piece] of pieces.entries()) {
      send({ content: piece });
      if (stall && index === 0) {
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
        response.destroy();
        return;
      }
    }
  }
  const toolCalls = (message['tool_calls'] ?? []) as Record<string, unknown>[];
  for (const [index, toolCall] of toolCalls.entries()) {
    const { function: call, ...rest } = toolCall as { function: { name: string; arguments: string } };
    send({ tool_calls: [{ index, ...rest, function: { name: call.name, arguments: '' } }] });
    for (const piece of halves(call.arguments))
      send({ tool_calls: [{ index, function: { arguments: piece } }] });
  }
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (profile === 'deepseek') send({}, { finish_reason: finishReason, usage });
  else {
    send({}, { finish_reason: finishReason });
    send(null, { usage });
  }
  response.end('data: [DONE]\n\n');
  await closed;
}

function halves(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter((piece) => piece !== '');
}

function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>);
      } catch {
        resolve({});
      }
    });
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}
