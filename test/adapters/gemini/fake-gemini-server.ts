import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkResponseSchema } from './gemini-response-schema-rules.js';

/** The value Gemini documents for a function call it did not sign; the validator lets it pass. */
export const skipSignature = 'skip_thought_signature_validator';

/** One part the server is told to produce; it adds signatures. */
export type ScriptedPart =
  /** A thought summary (`thought: true`); `signed` puts a signature on it. */
  | { readonly type: 'thought'; readonly text: string; readonly signed?: boolean }
  /** Answer text; `signed` puts a signature on it (Gemini signs the last part of a turn without calls). */
  | { readonly type: 'text'; readonly text: string; readonly signed?: boolean }
  /**
   * A function call. The first call of an answer is signed, as Gemini signs the first call of each
   * step; `signed` overrides that. `id` is sent as the call's id (Gemini 3 sends one).
   */
  | {
      readonly type: 'call';
      readonly name: string;
      readonly args: Record<string, unknown>;
      readonly id?: string;
      readonly signed?: boolean;
    };

/** A scripted answer to one request that passed the server's checks. */
export type ScriptedAnswer =
  | {
      readonly type: 'turn';
      readonly parts: readonly ScriptedPart[];
      /** @default 'STOP' */
      readonly finishReason?: string;
      /** Counts to report instead of the server's own. */
      readonly usage?: Partial<UsageMetadata>;
      /** Streaming only: after this many chunks, send nothing more until the client leaves (at most 10 s). */
      readonly hangAfterChunks?: number;
      /** Streaming only: waits this long before each chunk. */
      readonly chunkDelayMs?: number;
    }
  | {
      readonly type: 'error';
      readonly status: number;
      /** Google's status name, e.g. `'RESOURCE_EXHAUSTED'`. */
      readonly statusName: string;
      readonly message: string;
      /** `google.rpc` details, e.g. a `RetryInfo` with `retryDelay`. */
      readonly details?: readonly Record<string, unknown>[];
    }
  /** A prompt Gemini blocked: 200 with `promptFeedback.blockReason` and no candidate. */
  | { readonly type: 'blocked'; readonly blockReason: string };

/** The usage Gemini reports. */
export interface UsageMetadata {
  readonly promptTokenCount: number;
  readonly candidatesTokenCount: number;
  readonly thoughtsTokenCount?: number;
  readonly cachedContentTokenCount?: number;
  readonly totalTokenCount: number;
}

/** A request the server received, and what it answered. */
export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly url: string;
  readonly body: Record<string, unknown>;
  /** The status of the answer. */
  status: number;
  /** The error message, when the server refused the request. */
  refusal?: string;
  /** The usage the server reported, when it answered 200 with a candidate. */
  usage?: UsageMetadata;
}

/** A running fake Gemini API. */
export interface FakeGeminiServer {
  /** The base URL to give the `@google/genai` client (`httpOptions.baseUrl`), `http://127.0.0.1:PORT`. */
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
export interface FakeGeminiServerOptions {
  /** Refuse, as Gemini does ("The input token count (N) exceeds..."), a request of more tokens than this. */
  readonly contextWindowTokens?: number;
  /** Answers a request that passed the checks from its body and index, before the queue; `undefined` falls back to the queue. */
  readonly script?: (body: Record<string, unknown>, index: number) => ScriptedAnswer | undefined;
}

type Part = Record<string, unknown>;
type Content = { readonly role?: unknown; readonly parts?: unknown };

function invalid(message: string): Extract<ScriptedAnswer, { type: 'error' }> {
  return { type: 'error', status: 400, statusName: 'INVALID_ARGUMENT', message };
}

/** JSON with sorted keys: the client may write a part's keys in another order than the server did. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function withoutSignature(part: Part): Part {
  const { thoughtSignature: _signature, ...rest } = part;
  return rest;
}

function tokensOf(unit: unknown): number {
  return Math.ceil(JSON.stringify(unit ?? null).length / 4);
}

const partsOf = (content: Content): Part[] => (Array.isArray(content.parts) ? (content.parts as Part[]) : []);

/**
 * Starts a fake Gemini API (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`) on 127.0.0.1 that answers as Gemini documents, and refuses
 * with 400 `INVALID_ARGUMENT` what Gemini 3 refuses: a role other than `user` or `model`; in the
 * current turn (the contents after the last user content that is not only function responses),
 * a model content whose first function call has no `thoughtSignature`; a signature it did not issue,
 * or on another part than the one it was issued on (compared byte-for-byte, the part's keys in any
 * order), or out of the order it was issued in; the skip value passes. Function responses must
 * answer the calls of the model content right before, one each, in order, by name (and id when the
 * call had one), with `response` holding `output` or `error`; a model content of calls must be
 * followed by its responses. A prompt over `contextWindowTokens` gets Gemini's overflow message.
 * Structured-output settings Gemini refuses (see `checkResponseSchema`) get a 400 too.
 */
export async function startFakeGeminiServer(
  options: FakeGeminiServerOptions = {},
): Promise<FakeGeminiServer> {
  const queue: ScriptedAnswer[] = [];
  const requests: ReceivedRequest[] = [];
  const closed: Array<Promise<void>> = [];
  /** Issued signatures: the part they came on (without the signature, canonical) and their position. */
  const issued = new Map<string, { part: string; answer: number; position: number }>();
  let answers = 0;

  const check = (
    body: Record<string, unknown>,
    model: string,
  ): Extract<ScriptedAnswer, { type: 'error' }> | undefined => {
    const schemaProblem = checkResponseSchema(body, model);
    if (schemaProblem !== undefined) return invalid(schemaProblem);
    const contents = Array.isArray(body['contents']) ? (body['contents'] as Content[]) : [];
    if (contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified');
    for (const [index, content] of contents.entries()) {
      if (content.role !== 'user' && content.role !== 'model')
        return invalid(
          `Please use a valid role: user, model. (contents[${index}].role is ${JSON.stringify(content.role)})`,
        );
      if (partsOf(content).length === 0) return invalid(`contents[${index}].parts must not be empty.`);
    }
    let currentStart = 0;
    contents.forEach((content, index) => {
      if (content.role === 'user' && partsOf(content).some((part) => part['functionResponse'] === undefined))
        currentStart = index + 1;
    });
    for (const [index, content] of contents.entries()) {
      const parts = partsOf(content);
      if (content.role === 'model') {
        let last: { answer: number; position: number } | undefined;
        for (const [position, part] of parts.entries()) {
          const signature = part['thoughtSignature'];
          if (signature === undefined || signature === skipSignature) continue;
          const record = typeof signature === 'string' ? issued.get(signature) : undefined;
          if (record === undefined)
            return invalid(
              `Corrupted thought signature in contents[${index}].parts[${position}]: it is not one Gemini issued.`,
            );
          if (record.part !== canonical(withoutSignature(part)))
            return invalid(
              `Thought signature in contents[${index}].parts[${position}] does not belong to this part: it was issued on another one.`,
            );
          if (
            last !== undefined &&
            (record.answer < last.answer ||
              (record.answer === last.answer && record.position <= last.position))
          )
            return invalid(
              `Thought signatures in contents[${index}] are out of the order they were issued in.`,
            );
          last = record;
        }
        const firstCall = parts.findIndex((part) => part['functionCall'] !== undefined);
        if (
          index >= currentStart &&
          firstCall !== -1 &&
          parts[firstCall]!['thoughtSignature'] === undefined
        ) {
          const name = (parts[firstCall]!['functionCall'] as Record<string, unknown>)['name'];
          return invalid(
            `Function call \`${String(name)}\` in the ${index + 1}. content block is missing a \`thought_signature\`.`,
          );
        }
        const calls = parts.filter((part) => part['functionCall'] !== undefined);
        if (calls.length > 0) {
          const next = contents[index + 1];
          const responses =
            next === undefined ? [] : partsOf(next).filter((part) => part['functionResponse'] !== undefined);
          if (next === undefined || next.role !== 'user' || responses.length !== calls.length)
            return invalid(
              `Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn (contents[${index}] has ${calls.length}).`,
            );
          for (const [position, call] of calls.entries()) {
            const functionCall = call['functionCall'] as Record<string, unknown>;
            const response = responses[position]!['functionResponse'] as Record<string, unknown>;
            if (
              response['name'] !== functionCall['name'] ||
              (functionCall['id'] !== undefined && response['id'] !== functionCall['id'])
            )
              return invalid(
                `contents[${index + 1}]: function response ${position} (${String(response['name'])}) does not answer function call ${position} (${String(functionCall['name'])}).`,
              );
            const result = response['response'];
            if (typeof result !== 'object' || result === null || !('output' in result || 'error' in result))
              return invalid(`contents[${index + 1}]: a function response must hold output or error.`);
          }
        }
      } else if (parts.some((part) => part['functionResponse'] !== undefined)) {
        const previous = contents[index - 1];
        if (
          previous === undefined ||
          previous.role !== 'model' ||
          !partsOf(previous).some((part) => part['functionCall'] !== undefined)
        )
          return invalid(
            `contents[${index}]: function responses must follow a model content of function calls.`,
          );
      }
    }
    if (options.contextWindowTokens !== undefined) {
      const tokens = promptTokens(body);
      if (tokens > options.contextWindowTokens)
        return invalid(
          `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${options.contextWindowTokens}).`,
        );
    }
    return undefined;
  };

  /** The parts of an answer, signed as Gemini signs them, registered for the checks. */
  const answerParts = (answer: Extract<ScriptedAnswer, { type: 'turn' }>): Part[] => {
    const number = answers++;
    let calls = 0;
    return answer.parts.map((scripted, position) => {
      let part: Part;
      let signed: boolean;
      switch (scripted.type) {
        case 'thought':
          part = { text: scripted.text, thought: true };
          signed = scripted.signed === true;
          break;
        case 'text':
          part = { text: scripted.text };
          signed = scripted.signed === true;
          break;
        case 'call':
          part = {
            functionCall: {
              ...(scripted.id === undefined ? {} : { id: scripted.id }),
              name: scripted.name,
              args: scripted.args,
            },
          };
          signed = scripted.signed ?? calls === 0;
          calls += 1;
          break;
      }
      if (!signed) return part;
      const signature = `Cv${randomBytes(24).toString('base64')}`;
      issued.set(signature, { part: canonical(part), answer: number, position });
      return { ...part, thoughtSignature: signature };
    });
  };

  const server = createServer((request, response) => {
    const index = requests.length;
    closed[index] = new Promise((resolve) => response.on('close', () => resolve()));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const url = request.url ?? '';
      const received: ReceivedRequest = { headers: request.headers, url, body, status: 0 };
      requests.push(received);
      const route = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent\?alt=sse)$/.exec(url);
      const refused: ScriptedAnswer | undefined =
        route === null
          ? { type: 'error', status: 404, statusName: 'NOT_FOUND', message: `No route ${url}` }
          : check(body, route[1]!);
      const answer: ScriptedAnswer = refused ??
        options.script?.(body, index) ??
        queue.shift() ?? {
          type: 'error',
          status: 400,
          statusName: 'FAILED_PRECONDITION',
          message: `fake server: no scripted answer left for request ${index}`,
        };
      if (answer.type === 'error') {
        received.status = answer.status;
        received.refusal = answer.message;
        response.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8' });
        response.end(
          JSON.stringify({
            error: {
              code: answer.status,
              message: answer.message,
              status: answer.statusName,
              ...(answer.details === undefined ? {} : { details: answer.details }),
            },
          }),
        );
        return;
      }
      received.status = 200;
      const model = route![1]!;
      const responseId = `resp_${String(index).padStart(4, '0')}`;
      const prompt = promptTokens(body);
      if (answer.type === 'blocked') {
        const blocked = {
          promptFeedback: { blockReason: answer.blockReason },
          usageMetadata: { promptTokenCount: prompt, totalTokenCount: prompt },
          modelVersion: model,
          responseId,
        };
        if (route![2] === 'generateContent') {
          response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
          response.end(JSON.stringify(blocked));
        } else void writeChunks(response, [blocked], undefined, 0);
        return;
      }
      const parts = answerParts(answer);
      const thoughts = parts
        .filter((part) => part['thought'] === true)
        .reduce((sum, part) => sum + tokensOf(part['text']), 0);
      const candidates = parts
        .filter((part) => part['thought'] !== true)
        .reduce((sum, part) => sum + tokensOf(part['text'] ?? part['functionCall']), 0);
      const usage: UsageMetadata = {
        promptTokenCount: prompt,
        candidatesTokenCount: candidates,
        ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
        totalTokenCount: prompt + candidates + thoughts,
        ...answer.usage,
      };
      received.usage = usage;
      const finishReason = answer.finishReason ?? 'STOP';
      if (route![2] === 'generateContent') {
        response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
        response.end(
          JSON.stringify({
            candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
            usageMetadata: usage,
            modelVersion: model,
            responseId,
          }),
        );
        return;
      }
      void writeChunks(
        response,
        streamChunks(parts, finishReason, usage, model, responseId),
        answer.hangAfterChunks,
        answer.chunkDelayMs ?? 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...scripted) => void queue.push(...scripted),
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

/** The tokens of a request: a character estimate, as the fake needs no tokenizer. */
function promptTokens(body: Record<string, unknown>): number {
  return tokensOf(body['contents']) + tokensOf(body['systemInstruction']) + tokensOf(body['tools']);
}

/**
 * The chunks Gemini streams: text and thoughts in two pieces each (a signature on the last
 * piece), each function call whole; the last chunk has the finish reason and the usage.
 */
export function streamChunks(
  parts: readonly Part[],
  finishReason: string,
  usage: UsageMetadata,
  model: string,
  responseId: string,
): Record<string, unknown>[] {
  const pieces: Part[] = [];
  for (const part of parts) {
    const text = part['text'];
    if (typeof text !== 'string' || text.length < 2) {
      pieces.push(part);
      continue;
    }
    const middle = Math.ceil(text.length / 2);
    const { thoughtSignature: signature, ...rest } = part;
    pieces.push({ ...rest, text: text.slice(0, middle) });
    pieces.push({
      ...rest,
      text: text.slice(middle),
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
    });
  }
  const chunks = pieces.map((piece) => ({
    candidates: [{ content: { role: 'model', parts: [piece] }, index: 0 }],
    usageMetadata: { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount },
    modelVersion: model,
    responseId,
  }));
  const last = chunks.at(-1);
  const final = {
    candidates: [{ content: { role: 'model', parts: [] as Part[] }, finishReason, index: 0 }],
    usageMetadata: usage,
    modelVersion: model,
    responseId,
  };
  if (last === undefined) return [final];
  last.candidates[0] = { ...last.candidates[0]!, finishReason } as (typeof last.candidates)[0];
  last.usageMetadata = usage;
  return chunks;
}

async function writeChunks(
  response: ServerResponse,
  chunks: readonly Record<string, unknown>[],
  hangAfterChunks: number | undefined,
  chunkDelayMs: number,
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sent = 0;
  for (const chunk of chunks) {
    if (response.destroyed) return;
    if (hangAfterChunks !== undefined && sent >= hangAfterChunks) {
      await wait(10_000, response);
      break;
    }
    if (chunkDelayMs > 0) await wait(chunkDelayMs, response);
    if (response.destroyed) return;
    response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
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
