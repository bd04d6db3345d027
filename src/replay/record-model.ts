import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ModelAdapter, ModelResponse, ModelStreamEvent } from '../model/model-adapter.js';
import { CassetteEncoder, cassetteRequest, cassetteVersion, parseCassette } from './cassette.js';
import type { CassetteCall, CassetteHeader, RecordedStreamEvent } from './cassette.js';
import { recordError } from './recorded-error.js';
import { createRedactor } from './redact.js';
import type { RedactionRules } from './redact.js';

/** What `recordModel` takes. */
export interface RecordModelOptions {
  /** The cassette file: created with its header, or appended to when it has one. */
  readonly path: string;
  /** Secrets to remove besides the defaults (credentials by field name, provider keys, bearer tokens). */
  readonly redact?: RedactionRules;
  /**
   * Environment variables whose values named like keys (`*_API_KEY`, `*_TOKEN`, `*_SECRET`) are
   * removed wherever they appear. @default process.env
   */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The clock for the calls' timing. @default performance.now */
  readonly now?: () => number;
}

/**
 * Wraps an adapter so every model call is appended to a cassette file (JSONL) as it ends: the
 * request as the adapter received it (messages, tools, `toolChoice`, `responseFormat`), and the
 * response, or the stream's events with their timing, or the error it threw; usage is part of the
 * response. Secrets are removed before anything is written. The wrapped adapter behaves as the
 * original (same provider, model and capabilities); a call resolves once its line is written.
 * A call aborted by its signal is not recorded: it has no answer to replay.
 *
 * @example
 * const adapter = recordModel(new OpenAIAdapter({ model: 'gpt-4o' }), { path: 'test/cassettes/weather.jsonl' });
 */
export function recordModel(adapter: ModelAdapter, options: RecordModelOptions): ModelAdapter {
  const redact = createRedactor(options.redact, options.environment ?? process.env);
  const now = options.now ?? (() => performance.now());
  const encoder = new CassetteEncoder();
  let nextIndex = 0;
  // The calls already in the file: this recording's are numbered after them.
  let recorded = 0;
  // Lines are written one after the other, in the order calls end.
  let writing: Promise<void> = prepareFile(options.path, redact.copy(header(adapter))).then((count) => {
    recorded = count;
  });
  const write = (call: CassetteCall): Promise<void> => {
    writing = writing.then(() =>
      appendFile(
        options.path,
        `${encoder.encode(redact.copy({ ...call, index: recorded + call.index }))}\n`,
        'utf8',
      ),
    );
    return writing;
  };
  const recorder: ModelAdapter = {
    ...capabilities(adapter),
    async call(messages, tools, callOptions) {
      const index = nextIndex++;
      const request = cassetteRequest(messages, tools, callOptions);
      const startedAt = now();
      let response: ModelResponse;
      try {
        response = await adapter.call(messages, tools, callOptions);
      } catch (error) {
        if (callOptions?.signal?.aborted !== true) {
          await write({
            index,
            kind: 'call',
            request,
            error: recordError(error),
            durationMs: now() - startedAt,
          });
        }
        throw error;
      }
      await write({ index, kind: 'call', request, response, durationMs: now() - startedAt });
      return response;
    },
  };
  const stream = adapter.stream?.bind(adapter);
  if (stream !== undefined) {
    recorder.stream = async function* (messages, tools, callOptions): AsyncGenerator<ModelStreamEvent> {
      const index = nextIndex++;
      const request = cassetteRequest(messages, tools, callOptions);
      const startedAt = now();
      const events: RecordedStreamEvent[] = [];
      try {
        for await (const event of stream(messages, tools, callOptions)) {
          events.push({
            atMs: now() - startedAt,
            event: JSON.parse(JSON.stringify(event)) as ModelStreamEvent,
          });
          yield event;
        }
      } catch (error) {
        if (callOptions?.signal?.aborted !== true) {
          await write({
            index,
            kind: 'stream',
            request,
            events,
            error: recordError(error),
            durationMs: now() - startedAt,
          });
        }
        throw error;
      }
      await write({ index, kind: 'stream', request, events, durationMs: now() - startedAt });
    };
  }
  return recorder;
}

/** The adapter's identity and capabilities, as the wrapper shows them and the header keeps them. */
function capabilities(adapter: ModelAdapter): Omit<ModelAdapter, 'call' | 'stream'> {
  return {
    ...(adapter.provider === undefined ? {} : { provider: adapter.provider }),
    ...(adapter.model === undefined ? {} : { model: adapter.model }),
    ...(adapter.providerDataKey === undefined ? {} : { providerDataKey: adapter.providerDataKey }),
    ...(adapter.supportsResponseFormat === undefined
      ? {}
      : { supportsResponseFormat: adapter.supportsResponseFormat }),
    ...(adapter.contextWindowTokens === undefined
      ? {}
      : { contextWindowTokens: adapter.contextWindowTokens }),
  };
}

function header(adapter: ModelAdapter): CassetteHeader {
  return {
    type: 'cassette',
    version: cassetteVersion,
    recordedAt: new Date().toISOString(),
    adapter: capabilities(adapter) as CassetteHeader['adapter'],
  };
}

/**
 * Creates the file with its header, unless it already has content: then returns how many calls
 * it holds, and the new calls are appended after them.
 *
 * @throws {InvalidArgumentError} when the file exists but is not a cassette.
 */
async function prepareFile(path: string, fileHeader: CassetteHeader): Promise<number> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  if (text.trim() !== '') return parseCassette(text, path).calls.length;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(fileHeader)}\n`, 'utf8');
  return 0;
}
