import OpenAI from 'openai';
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
}

/**
 * Returns the injected client, or builds one from `apiKey` (else the provider's environment
 * variable), `baseURL`, `maxRetries`, `timeout` and `headers`.
 *
 * @throws {MissingApiKeyError} when there is neither a client, an `apiKey` nor the variable.
 * @throws {InvalidArgumentError} when `model` is empty, `maxRetries` is not a count or
 * `maxRetryDelayMs` is not a number of milliseconds.
 */
export function createClient(
  options: ChatCompletionsAdapterOptions,
  defaults: ProviderDefaults,
): OpenAIClient {
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
  if (options.client !== undefined) return options.client;
  const apiKey = options.apiKey ?? readEnvironment(defaults.environmentVariable);
  if (apiKey === undefined || apiKey === '') {
    throw new MissingApiKeyError({
      provider: defaults.provider,
      environmentVariable: defaults.environmentVariable,
    });
  }
  const baseURL = options.baseURL ?? defaults.baseURL;
  return new OpenAI({
    apiKey,
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
  });
}

function readEnvironment(name: string): string | undefined {
  // Not every runtime has `process`.
  return typeof process === 'undefined' ? undefined : process.env[name];
}
