import type { JsonValue } from '../durable/run-state.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ChatMessage } from '../model/messages.js';
import type {
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../model/model-adapter.js';
import type { RecordedError } from './recorded-error.js';

/** The version of the cassette format this package writes and reads. */
export const cassetteVersion = 1;

/** The first line of a cassette: what was recorded, from which adapter. */
export interface CassetteHeader {
  readonly type: 'cassette';
  readonly version: typeof cassetteVersion;
  /** When the recording started, as an ISO date. */
  readonly recordedAt: string;
  /** The recorded adapter's `provider`, `model`, `providerDataKey` and `supportsResponseFormat`. */
  readonly adapter: {
    readonly provider?: string;
    readonly model?: string;
    readonly providerDataKey?: string;
    readonly supportsResponseFormat?: boolean;
    readonly contextWindowTokens?: number;
  };
}

/** A model request as the adapter received it: the transcript, the tools and the call's options (no signal). */
export interface CassetteRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  /** `toolChoice` and `responseFormat`, when the call had them. */
  readonly options: { readonly [option: string]: JsonValue };
}

/** A call's request as a cassette keeps it: plain JSON, the options a recording can replay (no signal). */
export function cassetteRequest(
  messages: readonly ChatMessage[],
  tools: readonly ModelToolDefinition[],
  options: ModelCallOptions | undefined,
): CassetteRequest {
  return JSON.parse(JSON.stringify(requestOf(messages, tools, options))) as CassetteRequest;
}

/**
 * The same request, not copied: for a reader that copies it anyway (the redactor does). Fields set
 * to `undefined` are left in; comparisons treat them as absent, as JSON does.
 */
export function requestOf(
  messages: readonly ChatMessage[],
  tools: readonly ModelToolDefinition[],
  options: ModelCallOptions | undefined,
): CassetteRequest {
  return {
    messages,
    tools,
    options: {
      ...(options?.toolChoice === undefined ? {} : { toolChoice: options.toolChoice as JsonValue }),
      ...(options?.responseFormat === undefined
        ? {}
        : { responseFormat: options.responseFormat as unknown as JsonValue }),
    },
  };
}

/** One stream event and when it came, in milliseconds after the call started. */
export interface RecordedStreamEvent {
  readonly atMs: number;
  readonly event: ModelStreamEvent;
}

/** One recorded model call: its request and what came back (a response, stream events, or an error). */
export interface CassetteCall {
  /** The call's place in the recording, in the order calls started. */
  readonly index: number;
  /** `'call'` for `adapter.call()`, `'stream'` for `adapter.stream()`. */
  readonly kind: 'call' | 'stream';
  readonly request: CassetteRequest;
  /** The response of a call that resolved. */
  readonly response?: ModelResponse;
  /** The events of a stream, in order (the last a `response` event when it finished). */
  readonly events?: readonly RecordedStreamEvent[];
  /** The error the call threw (a stream: after its `events`). */
  readonly error?: RecordedError;
  /** Milliseconds from the call's start to its end. */
  readonly durationMs: number;
}

/** A cassette as read: its header and its calls in `index` order. */
export interface Cassette {
  readonly header: CassetteHeader;
  readonly calls: readonly CassetteCall[];
}

/**
 * How a call is written: its request's messages as the ones it shares with the previous line's
 * request (`messagesOffset`) plus the rest, and its tools as `toolsAsBefore: true` when they are
 * the previous line's. Each line stays readable and editable on its own.
 */
interface EncodedCall extends Omit<CassetteCall, 'request'> {
  readonly type: 'call';
  readonly request: {
    readonly messagesOffset?: number;
    readonly messages: readonly ChatMessage[];
    readonly tools?: readonly ModelToolDefinition[];
    readonly toolsAsBefore?: true;
    readonly options: CassetteRequest['options'];
  };
}

/** Writes calls as cassette lines, each sharing what it can with the line before. One per file. */
export class CassetteEncoder {
  #previous: CassetteRequest | undefined;

  /** The JSON line for `call` (no newline). */
  encode(call: CassetteCall): string {
    const previous = this.#previous;
    this.#previous = call.request;
    const { request, ...rest } = call;
    const offset = previous === undefined ? 0 : sharedPrefix(previous.messages, request.messages);
    const toolsAsBefore =
      previous !== undefined && JSON.stringify(previous.tools) === JSON.stringify(request.tools);
    const encoded: EncodedCall = {
      type: 'call',
      ...rest,
      request: {
        ...(offset === 0 ? {} : { messagesOffset: offset }),
        messages: request.messages.slice(offset),
        ...(toolsAsBefore ? { toolsAsBefore: true } : { tools: request.tools }),
        options: request.options,
      },
    };
    return JSON.stringify(encoded);
  }
}

/** How many leading messages two transcripts share, compared as JSON. */
function sharedPrefix(before: readonly ChatMessage[], now: readonly ChatMessage[]): number {
  let count = 0;
  while (
    count < before.length &&
    count < now.length &&
    JSON.stringify(before[count]) === JSON.stringify(now[count])
  )
    count++;
  return count;
}

/**
 * Reads a cassette's text: its header line, then one line per call (blank lines are skipped).
 *
 * @throws {InvalidArgumentError} naming the line that is not a cassette line, or a version this package does not read.
 */
export function parseCassette(text: string, source = 'cassette'): Cassette {
  const lines = text.split('\n');
  let header: CassetteHeader | undefined;
  const calls: CassetteCall[] = [];
  let previous: CassetteRequest | undefined;
  lines.forEach((line, position) => {
    if (line.trim() === '') return;
    const where = `${source} line ${position + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      bad(where, line, `is not JSON (${(error as Error).message}); a cassette has one JSON object a line.`);
    }
    const entry = value as { type?: unknown; version?: unknown };
    if (header === undefined) {
      if (entry.type !== 'cassette')
        bad(where, line, 'must be the cassette header, {"type":"cassette",...}.');
      if (entry.version !== cassetteVersion) {
        bad(
          where,
          entry.version,
          `is a cassette version this package does not read (it reads version ${cassetteVersion}); record it again.`,
        );
      }
      header = value as CassetteHeader;
      return;
    }
    if (entry.type !== 'call') bad(where, line, 'must be a recorded call, {"type":"call",...}.');
    const { type: _type, request, ...rest } = value as EncodedCall;
    if (typeof request !== 'object' || request === null || !Array.isArray(request.messages)) {
      bad(where, line, 'must have a request with its messages.');
    }
    const offset = request.messagesOffset ?? 0;
    if (offset > 0 && (previous === undefined || previous.messages.length < offset)) {
      bad(
        where,
        offset,
        "is a messagesOffset past the previous call's messages; the file was edited out of order.",
      );
    }
    const tools = request.toolsAsBefore === true ? previous?.tools : request.tools;
    if (!Array.isArray(tools))
      bad(where, line, 'must have its tools, or toolsAsBefore after a call that has them.');
    const decoded: CassetteRequest = {
      messages: [...(previous?.messages.slice(0, offset) ?? []), ...request.messages],
      tools,
      options: request.options ?? {},
    };
    previous = decoded;
    calls.push({ ...rest, request: decoded });
  });
  if (header === undefined)
    bad(source, text.slice(0, 80), 'is empty: a cassette starts with its header line.');
  calls.sort((first, second) => first.index - second.index);
  return { header, calls };
}

function bad(where: string, value: unknown, message: string): never {
  throw new InvalidArgumentError({ argument: where, value, message });
}
