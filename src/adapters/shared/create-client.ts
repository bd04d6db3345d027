import type { ClientOptions } from 'openai';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { MissingApiKeyError } from '../../errors/missing-api-key-error.js';
import type { ChatCompletionsAdapterOptions } from './chat-completions-options.js';
import type { OpenAIClient } from './openai-client.js';

/** What a provider sets for its adapter. */
export interface ProviderDefaults {
  /** The provider name used in errors and traces, e.g. `'deepseek'`. */
  readonly provider: string;
  /** The environment variable holding the API key, e.g. `'DEEPSEEK_API_KEY'`. */
  readonly environmentVariable: string;
  /** The base URL when the caller gives none; `undefined` lets the client read `OPENAI_BASE_URL`. */
  readonly baseURL?: string;
  /** The hosts the provider's environment variable may be sent to, e.g. `['api.deepseek.com']`. */
  readonly keyHosts: readonly string[];
  /** The environment variable the client reads its base URL from. @default 'OPENAI_BASE_URL' */
  readonly baseURLVariable?: string;
}

/** A client package's Server-Sent Events parser (`openai`'s and `@anthropic-ai/sdk`'s `_iterSSEMessages`). */
export type DecodeEvents = (
  response: Response,
  controller: AbortController,
) => AsyncIterable<{ readonly event: string | null; readonly data: string }>;

/**
 * Where an adapter's client comes from: the injected one, or the settings to build one with on
 * first use. `Client` is the part of the `openai` client the adapter uses.
 */
export type ClientSource<Client extends object = OpenAIClient> =
  { readonly client: Client } | { readonly settings: ClientOptions };

/** The options {@link clientSource} reads: those of every adapter over the `openai` client. */
export type ClientSourceOptions<Client extends object = OpenAIClient> = Pick<
  ChatCompletionsAdapterOptions,
  | 'model'
  | 'apiKey'
  | 'baseURL'
  | 'maxRetries'
  | 'maxRetryDelayMs'
  | 'timeout'
  | 'headers'
  | 'dangerouslyAllowBrowser'
> & { readonly client?: Client | undefined };

/** What an adapter uses of its client package: a client, and the package's own SSE parser. */
export interface ClientConnection<Client extends object = OpenAIClient> {
  readonly client: Client;
  readonly decodeEvents: DecodeEvents;
}

/**
 * Checks the options and says where the client comes from: the injected one, or settings from
 * `apiKey` (else the provider's environment variable, read now), `baseURL`, `maxRetries`,
 * `timeout`, `headers` and `dangerouslyAllowBrowser`, for the adapter's `connect`.
 *
 * @throws {MissingApiKeyError} when there is neither a client, an `apiKey` nor the variable.
 * @throws {InvalidArgumentError} when `model` is empty, `maxRetries` is not a count or
 * `maxRetryDelayMs` is not a number of milliseconds.
 */
export function clientSource<Client extends object = OpenAIClient>(
  options: ClientSourceOptions<Client>,
  defaults: ProviderDefaults,
): ClientSource<Client> {
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new InvalidArgumentError({
      argument: 'model',
      value: options.model,
      message: `give the ${defaults.provider} model name, e.g. { model: 'gpt-5-mini' } or { model: 'deepseek-v4-flash' }`,
    });
  }
  if (
    options.maxRetries !== undefined &&
    !(Number.isInteger(options.maxRetries) && options.maxRetries >= 0)
  ) {
    throw new InvalidArgumentError({
      argument: 'maxRetries',
      value: options.maxRetries,
      message: 'must be an integer >= 0',
    });
  }
  const maxRetryDelayMs: unknown = options.maxRetryDelayMs;
  if (maxRetryDelayMs !== undefined && !(typeof maxRetryDelayMs === 'number' && maxRetryDelayMs >= 0)) {
    throw new InvalidArgumentError({
      argument: 'maxRetryDelayMs',
      value: maxRetryDelayMs,
      message: 'must be a number of milliseconds >= 0 (Infinity: always wait as long as the server asks)',
    });
  }
  const allowBrowser: unknown = options.dangerouslyAllowBrowser;
  if (allowBrowser !== undefined && typeof allowBrowser !== 'boolean') {
    throw new InvalidArgumentError({
      argument: 'dangerouslyAllowBrowser',
      value: allowBrowser,
      message: 'must be true or false.',
    });
  }
  if (options.client !== undefined) return { client: options.client };
  const foreignOrigin = options.apiKey === undefined ? foreignHost(options.baseURL, defaults) : undefined;
  if (foreignOrigin !== undefined) {
    throw new MissingApiKeyError({
      provider: defaults.provider,
      environmentVariable: defaults.environmentVariable,
      origin: foreignOrigin,
    });
  }
  const apiKey = options.apiKey ?? readEnvironment(defaults.environmentVariable);
  if (apiKey === undefined || apiKey === '') {
    throw new MissingApiKeyError({
      provider: defaults.provider,
      environmentVariable: defaults.environmentVariable,
    });
  }
  // Resolved here, as the client would resolve it, so the adapter can name where it connects.
  const baseURL =
    options.baseURL ??
    defaults.baseURL ??
    nonEmpty(readEnvironment(defaults.baseURLVariable ?? 'OPENAI_BASE_URL'));
  return {
    settings: {
      apiKey,
      ...(baseURL === undefined ? {} : { baseURL }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
      ...(options.dangerouslyAllowBrowser === undefined
        ? {}
        : { dangerouslyAllowBrowser: options.dangerouslyAllowBrowser }),
    },
  };
}

function readEnvironment(name: string): string | undefined {
  // Not every runtime has `process`.
  return typeof process === 'undefined' ? undefined : process.env[name];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * The origin of a `baseURL` the caller gave on a host the provider's key must not be sent to, or
 * `undefined`: no `baseURL`, or one on the provider's own host. A URL that does not parse counts as
 * foreign (the client would fail on it anyway).
 */
function foreignHost(baseURL: string | undefined, defaults: ProviderDefaults): string | undefined {
  if (baseURL === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return baseURL;
  }
  return defaults.keyHosts.includes(url.hostname.toLowerCase()) ? undefined : url.origin;
}
