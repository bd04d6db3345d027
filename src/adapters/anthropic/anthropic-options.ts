import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatCompletionsAdapterOptions } from '../shared/chat-completions-options.js';
import type { AnthropicClient } from './anthropic-client.js';

/**
 * Claude's extended thinking: `{ type: 'enabled', budgetTokens }` (manual, at most `budgetTokens`
 * of thinking per turn, at least 1024 and under `maxTokens`), `{ type: 'adaptive' }` (the model
 * decides how much to think, on the models that offer it) or `'disabled'`.
 */
export type AnthropicThinking =
  { readonly type: 'enabled'; readonly budgetTokens: number } | { readonly type: 'adaptive' } | 'disabled';

/** Prompt caching: where breakpoints go is the adapter's; how long entries live is `ttl`. */
export interface AnthropicCacheOptions {
  /** How long Anthropic keeps what each request writes: `'5m'` (writes cost 1.25x input) or `'1h'` (2x). @default '5m' */
  readonly ttl?: '5m' | '1h';
}

/**
 * Options of {@link AnthropicAdapter}; the connection and retry options are those of the other
 * adapters. Parameters left out are not sent, except `max_tokens`, which the API requires.
 */
export interface AnthropicAdapterOptions extends Pick<
  ChatCompletionsAdapterOptions,
  | 'model'
  | 'contextWindowTokens'
  | 'apiKey'
  | 'baseURL'
  | 'provider'
  | 'maxRetries'
  | 'maxRetryDelayMs'
  | 'timeout'
  | 'headers'
  | 'dangerouslyAllowBrowser'
  | 'retryBaseDelayMs'
  | 'toolChoice'
  | 'extraBody'
  | 'temperature'
> {
  /**
   * An `@anthropic-ai/sdk` client to use as is; `apiKey`, `baseURL`, `timeout`, `headers` are then
   * ignored. Without one, the adapter builds its own on the first request, loading the package then,
   * with `apiKey` (else `ANTHROPIC_API_KEY`, which is never sent to a `baseURL` on another host).
   */
  readonly client?: AnthropicClient;
  /**
   * Sent as `max_tokens`, which the API requires: the most tokens the answer may take, thinking
   * included. Above 21,333 the client refuses a non-streaming call unless it has a `timeout`,
   * and `call` throws `InvalidArgumentError`: run the orchestrator with `stream: true`, or give `timeout`.
   * @default 16000, or the model's maximum output when lower (older models)
   */
  readonly maxTokens?: number;
  /** Extended thinking; one setting holds for every call of the adapter. @default not sent (off) */
  readonly thinking?: AnthropicThinking;
  /**
   * Prompt caching, on by default: `cache_control` breakpoints on the last tool, the last system
   * block, and the last message of both the previous and the current request, so each call reads
   * what the one before wrote. `false` sends no breakpoint.
   * @default { ttl: '5m' }
   */
  readonly cache?: AnthropicCacheOptions | false;
  /**
   * `false` sends `disable_parallel_tool_use: true`: at most one tool call per turn.
   * @default not sent (Claude may call several tools in a turn)
   */
  readonly parallelToolCalls?: boolean;
  /**
   * Fine-grained tool streaming: `eager_input_streaming: true` on every tool (`true`) or on the
   * tools named, so their input streams as Claude writes it, unbuffered and unvalidated by the API.
   * @default not sent
   */
  readonly eagerInputStreaming?: boolean | readonly string[];
  /**
   * Send a call's `responseFormat` as `output_config.format: { type: 'json_schema', schema }`
   * (Claude's structured outputs). `false` for a model, a proxy or a cloud platform that answers
   * 400 to it: the adapter then sends no `output_config.format`, and `supportsResponseFormat` is
   * false, so the orchestrator asks for a typed output through a final-answer tool instead.
   * @default true, except for the models Anthropic documents without structured outputs (names starting `claude-3`, `claude-sonnet-4-0`, `claude-sonnet-4-2025`, `claude-opus-4-0`, `claude-opus-4-1`, `claude-opus-4-2025`)
   */
  readonly nativeStructuredOutput?: boolean;
}

/**
 * Checks the options only this adapter has, before any request.
 *
 * @throws {InvalidArgumentError} naming the option, its value and what it must be.
 */
export function validateAnthropicOptions(options: AnthropicAdapterOptions, maxTokens: number): void {
  const requested: unknown = options.maxTokens;
  if (requested !== undefined && !isPositiveInteger(requested)) {
    throw new InvalidArgumentError({
      argument: 'maxTokens',
      value: requested,
      message: 'must be a positive integer: the most tokens the answer may take, thinking included.',
    });
  }
  const thinking: unknown = options.thinking;
  if (thinking !== undefined && thinking !== 'disabled') {
    const type = isObject(thinking) ? thinking['type'] : undefined;
    if (type === 'enabled') {
      const budget = (thinking as Record<string, unknown>)['budgetTokens'];
      if (!isPositiveInteger(budget) || budget < 1024 || budget >= maxTokens) {
        throw new InvalidArgumentError({
          argument: 'thinking.budgetTokens',
          value: budget,
          message: `must be an integer of at least 1024 and under maxTokens (${maxTokens}): raise maxTokens for a larger budget.`,
        });
      }
    } else if (type !== 'adaptive') {
      throw new InvalidArgumentError({
        argument: 'thinking',
        value: thinking,
        message: "must be { type: 'enabled', budgetTokens: 4000 }, { type: 'adaptive' } or 'disabled'.",
      });
    }
  }
  const thinkingOn = thinking !== undefined && thinking !== 'disabled';
  if (thinkingOn && options.temperature !== undefined && options.temperature !== 1) {
    throw new InvalidArgumentError({
      argument: 'temperature',
      value: options.temperature,
      message:
        'cannot be set with thinking on: Claude thinks at temperature 1. Leave temperature out, or turn thinking off.',
    });
  }
  const cache: unknown = options.cache;
  if (cache !== undefined && cache !== false) {
    const ttl = isObject(cache) ? cache['ttl'] : null;
    if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') {
      throw new InvalidArgumentError({
        argument: 'cache',
        value: cache,
        message: "must be false (no caching) or { ttl: '5m' } / { ttl: '1h' }.",
      });
    }
  }
  const parallel: unknown = options.parallelToolCalls;
  if (parallel !== undefined && typeof parallel !== 'boolean') {
    throw new InvalidArgumentError({
      argument: 'parallelToolCalls',
      value: parallel,
      message: 'must be true or false.',
    });
  }
  const eager: unknown = options.eagerInputStreaming;
  if (
    eager !== undefined &&
    typeof eager !== 'boolean' &&
    !(Array.isArray(eager) && eager.every((name) => typeof name === 'string'))
  ) {
    throw new InvalidArgumentError({
      argument: 'eagerInputStreaming',
      value: eager,
      message: "must be true, false, or the names of the tools to stream eagerly, e.g. ['write_file'].",
    });
  }
}

/** Most output tokens of older models, by name prefix; newer ones take the default. */
const smallerOutputs: readonly (readonly [prefix: string, tokens: number])[] = [
  ['claude-3-5-', 8192],
  ['claude-3-haiku', 4096],
  ['claude-3-opus', 4096],
  ['claude-3-sonnet', 4096],
];

/** The default `max_tokens`: under the client's non-streaming limit (21,333), and within what older models can write. */
export const defaultMaxTokens = 16_000;

/** The `max_tokens` every request sends: the option, else the model's default. */
export function maxTokensOf(options: AnthropicAdapterOptions): number {
  if (options.maxTokens !== undefined) return options.maxTokens;
  const smaller = smallerOutputs.find(([prefix]) => options.model.startsWith(prefix));
  return smaller?.[1] ?? defaultMaxTokens;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
