import { readFileSync } from 'node:fs';
import { ReplayMismatchError } from '../errors/replay-mismatch-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ChatMessage } from '../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../model/model-adapter.js';
import { abortableWait } from '../shared/abortable-wait.js';
import { parseCassette, requestOf } from './cassette.js';
import type { Cassette, CassetteCall, CassetteRequest, RecordedStreamEvent } from './cassette.js';
import { firstDifference, firstDifferenceOfCopies } from './first-difference.js';
import { replayError } from './recorded-error.js';
import { createRedactor } from './redact.js';
import type { RedactionRules, Redactor } from './redact.js';

/** The matcher's request is already redacted: compared as it is. */
const noRedaction: Redactor = { copy: (value) => value, text: (value) => value, blanks: () => false };

/** What a custom matcher is given besides the request. */
export interface ReplayMatchContext {
  /** The zero-based number of this call in the replay. */
  readonly callIndex: number;
  /** Every recorded call, in recorded order. */
  readonly calls: readonly CassetteCall[];
  /** The indexes (`CassetteCall.index`) of the recorded calls already replayed. */
  readonly used: ReadonlySet<number>;
}

/**
 * Which recorded call answers a call: `'strict'` (the next recorded call, whose request must
 * equal this one), `'sequence'` (the next recorded call, whatever was sent), or a function that
 * picks one (`undefined`: none fits).
 */
export type ReplayMatch =
  | 'strict'
  | 'sequence'
  | ((request: CassetteRequest, context: ReplayMatchContext) => CassetteCall | undefined);

/**
 * A matcher that answers a call with the first unused recording of an equal request, wherever it
 * is in the cassette: for runs whose calls interleave differently each time (cases of an
 * evaluation run at once, parallel agent tools). A request with no equal recording finds none.
 *
 * @example
 * const adapter = new ReplayAdapter({ path, match: matchByRequest });
 */
export const matchByRequest: Extract<ReplayMatch, (...args: never[]) => unknown> = (
  request,
  { calls, used },
) =>
  calls.find(
    (call) =>
      !used.has(call.index) && firstDifferenceOfCopies(call.request, request, noRedaction) === undefined,
  );

/** What `new ReplayAdapter()` takes: a cassette file or a cassette already read. */
export interface ReplayAdapterOptions {
  /** The cassette file `recordModel` wrote. */
  readonly path?: string;
  /** A cassette already read (`parseCassette`), instead of `path`. */
  readonly cassette?: Cassette;
  /** How a call finds its recording. @default 'strict' */
  readonly match?: ReplayMatch;
  /** `'recorded'`: answers take as long as they did, stream events come at their recorded times. @default 'instant' */
  readonly speed?: 'instant' | 'recorded';
  /**
   * The redaction rules the recording used, so `'strict'` compares requests as they were written.
   * @default none besides the defaults
   */
  readonly redact?: RedactionRules;
}

/**
 * A model adapter that answers from a cassette (see `recordModel`) without a network: each call
 * gets its recorded response, a stream its recorded events, and a recorded failure throws again
 * (an adapter's `ModelProviderError` as its own class). It shows the recorded adapter's
 * `provider`, `model` and capabilities, so a run replayed from its own recording makes the same
 * calls and ends the same way.
 *
 * @throws {InvalidArgumentError} when the options give neither or both of `path` and `cassette`,
 * or the file is not a cassette.
 * @example
 * const adapter = new ReplayAdapter({ path: 'test/cassettes/weather.jsonl' });
 * const result = await new ToolOrchestrator(adapter, tools).run(messages);
 */
export class ReplayAdapter implements ModelAdapter {
  readonly provider?: string;
  readonly model?: string;
  readonly providerDataKey?: string;
  readonly supportsResponseFormat?: boolean;
  readonly contextWindowTokens?: number;
  /** The cassette being replayed. */
  readonly cassette: Cassette;
  readonly #source: string;
  readonly #match: ReplayMatch;
  readonly #speed: 'instant' | 'recorded';
  readonly #redactor: Redactor;
  readonly #used = new Set<number>();
  #callIndex = 0;

  constructor(options: ReplayAdapterOptions) {
    if ((options.path === undefined) === (options.cassette === undefined)) {
      throw new InvalidArgumentError({
        argument: 'options',
        value: options,
        message: 'must give exactly one of path (a cassette file) and cassette (one already read).',
      });
    }
    this.#source = options.path ?? 'cassette';
    this.cassette = options.cassette ?? parseCassette(readCassetteFile(options.path!), options.path);
    const match = options.match ?? 'strict';
    if (match !== 'strict' && match !== 'sequence' && typeof match !== 'function') {
      throw new InvalidArgumentError({
        argument: 'match',
        value: match,
        message: "must be 'strict', 'sequence', or a function (request, context) => recorded call.",
      });
    }
    this.#match = match;
    this.#speed = options.speed ?? 'instant';
    this.#redactor = createRedactor(options.redact);
    const recorded = this.cassette.header.adapter;
    if (recorded.provider !== undefined) this.provider = recorded.provider;
    if (recorded.model !== undefined) this.model = recorded.model;
    if (recorded.providerDataKey !== undefined) this.providerDataKey = recorded.providerDataKey;
    if (recorded.supportsResponseFormat !== undefined)
      this.supportsResponseFormat = recorded.supportsResponseFormat;
    if (recorded.contextWindowTokens !== undefined) this.contextWindowTokens = recorded.contextWindowTokens;
  }

  /** How many calls have been answered. */
  get callsReplayed(): number {
    return this.#callIndex;
  }

  async call(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): Promise<ModelResponse> {
    const recorded = this.#next(messages, tools, options);
    const events = recorded.events ?? [];
    await abortableWait(this.#speed === 'recorded' ? recorded.durationMs : 0, options.signal);
    if (recorded.error !== undefined) throw replayError(recorded.error);
    const response =
      recorded.response ??
      (events.at(-1)?.event as Extract<ModelStreamEvent, { type: 'response' }> | undefined)?.response;
    if (response === undefined) {
      throw new ReplayMismatchError({
        source: this.#source,
        callIndex: this.#callIndex - 1,
        reason: 'no_recording',
        recordedCalls: this.cassette.calls.length,
      });
    }
    return structuredClone(response);
  }

  async *stream(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamEvent> {
    const recorded = this.#next(messages, tools, options);
    const events: readonly RecordedStreamEvent[] =
      recorded.events ?? (recorded.response === undefined ? [] : eventsOf(recorded.response));
    let elapsed = 0;
    for (const { atMs, event } of events) {
      if (this.#speed === 'recorded') {
        await abortableWait(atMs - elapsed, options.signal);
        elapsed = atMs;
      } else {
        await abortableWait(0, options.signal);
      }
      yield structuredClone(event);
    }
    if (recorded.error !== undefined) throw replayError(recorded.error);
  }

  /** The recorded call that answers this one. @throws {ReplayMismatchError} when none does. */
  #next(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
  ): CassetteCall {
    const callIndex = this.#callIndex++;
    const calls = this.cassette.calls;
    const match = this.#match;
    const found =
      typeof match === 'function'
        ? match(this.#redactor.copy(requestOf(messages, tools, options)), {
            callIndex,
            calls,
            used: this.#used,
          })
        : calls.find((call) => !this.#used.has(call.index));
    const mismatch = { source: this.#source, callIndex, recordedCalls: calls.length };
    if (found === undefined) throw new ReplayMismatchError({ ...mismatch, reason: 'no_recording' });
    if (match === 'strict') {
      const difference = firstDifference(found.request, requestOf(messages, tools, options), this.#redactor);
      if (difference !== undefined)
        throw new ReplayMismatchError({ ...mismatch, reason: 'different_request', ...difference });
    }
    this.#used.add(found.index);
    return found;
  }
}

/** A recorded `call()` replayed as a stream: its text as one delta, then the response. */
function eventsOf(response: ModelResponse): RecordedStreamEvent[] {
  const events: RecordedStreamEvent[] = [];
  if (typeof response.content === 'string' && response.content !== '')
    events.push({ atMs: 0, event: { type: 'content_delta', delta: response.content } });
  events.push({ atMs: 0, event: { type: 'response', response } });
  return events;
}

function readCassetteFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidArgumentError({
      argument: 'path',
      value: path,
      message: `cannot be read (${(error as Error).message}): record the cassette first with recordModel(adapter, { path }), or check the path.`,
    });
  }
}
