import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import { DeepSeekAdapter } from '../../../src/adapters/deepseek/index.js';
import { GeminiAdapter } from '../../../src/adapters/gemini/index.js';
import { OpenAIAdapter, OpenAIResponsesAdapter } from '../../../src/adapters/openai/index.js';
import type { ChatCompletionsAdapterOptions } from '../../../src/adapters/openai/index.js';
import type { AssistantMessage, ModelAdapter } from '../../../src/index.js';
import { startAnthropicConformanceServer } from './anthropic-wire-server.js';
import { startChatCompletionsServer } from './chat-completions-wire-server.js';
import { startGeminiConformanceServer } from './gemini-wire-server.js';
import type { ConformanceServer } from './conformance-server.js';
import type { Plan } from './conformance-plan.js';
import { startResponsesConformanceServer } from './responses-wire-server.js';

/** Where an adapter sends its requests, and how it retries. */
export interface TargetConnection {
  /** The fake server's base URL; absent against the real API. */
  readonly baseURL?: string;
  readonly apiKey: string;
  readonly model: string;
  readonly maxRetries?: number;
  readonly retryBaseDelayMs?: number;
}

/**
 * One adapter the conformance suite runs every scenario through: how to build it, the fake server
 * that speaks its provider's wire and enforces its rules, and what the transcript must keep of
 * each turn. A new adapter joins the suite by adding one entry to {@link conformanceTargets}.
 */
export interface ConformanceTarget {
  readonly name: string;
  createAdapter(connection: TargetConnection): ModelAdapter;
  startServer(plan: Plan): Promise<ConformanceServer>;
  /**
   * What the provider needs back of an assistant turn, as the transcript holds it, or `undefined`
   * when the provider returns no reasoning (OpenAI's Chat Completions shows none).
   */
  reasoningOf(message: AssistantMessage): unknown;
  /** True when the provider returns reasoning (or signatures) on every turn, which the transcript must keep. */
  readonly returnsReasoning: boolean;
  /** True when the provider streams its reasoning (as `reasoning_delta` events). */
  readonly streamsReasoning: boolean;
  /** The real API: the key's environment variable and a model, for `npm run test:conformance:live`. */
  readonly live?: { readonly keyVariable: string; readonly model: string };
}

/** The connection options every adapter of the suite takes (the Responses adapter has no `client` of Chat Completions). */
type ConnectionOptions = Pick<
  ChatCompletionsAdapterOptions,
  'model' | 'apiKey' | 'baseURL' | 'maxRetries' | 'retryBaseDelayMs' | 'timeout'
>;

function connectionOptions(connection: TargetConnection): ConnectionOptions {
  return {
    model: connection.model,
    apiKey: connection.apiKey,
    ...(connection.baseURL === undefined ? {} : { baseURL: connection.baseURL }),
    ...(connection.maxRetries === undefined ? {} : { maxRetries: connection.maxRetries }),
    ...(connection.retryBaseDelayMs === undefined ? {} : { retryBaseDelayMs: connection.retryBaseDelayMs }),
    timeout: connection.baseURL === undefined ? 120_000 : 30_000,
  };
}

/** Every adapter of the suite, by name. */
export const conformanceTargets: readonly ConformanceTarget[] = [
  {
    name: 'openai-chat-completions',
    createAdapter: (connection) => new OpenAIAdapter(connectionOptions(connection)),
    startServer: (plan) => startChatCompletionsServer('openai', plan),
    reasoningOf: () => undefined,
    returnsReasoning: false,
    streamsReasoning: false,
    live: { keyVariable: 'OPENAI_API_KEY', model: process.env['CONFORMANCE_OPENAI_MODEL'] ?? 'gpt-5-mini' },
  },
  {
    name: 'deepseek-thinking',
    createAdapter: (connection) =>
      new DeepSeekAdapter({ ...connectionOptions(connection), thinking: 'enabled' }),
    startServer: (plan) => startChatCompletionsServer('deepseek', plan),
    reasoningOf: (message) => message.reasoning_content,
    returnsReasoning: true,
    streamsReasoning: true,
    live: {
      keyVariable: 'DEEPSEEK_API_KEY',
      model: process.env['CONFORMANCE_DEEPSEEK_MODEL'] ?? 'deepseek-v4-flash',
    },
  },
  {
    // An OpenAI-compatible gateway in front of Gemini: thought signatures in `extra_content`.
    name: 'openai-compatible-gateway',
    createAdapter: (connection) =>
      new OpenAIAdapter({ ...connectionOptions(connection), provider: 'gateway' }),
    startServer: (plan) => startChatCompletionsServer('gateway', plan),
    reasoningOf: (message) => {
      const own = message.providerData?.['gateway.chat_completions'];
      const signature = message.tool_calls?.[0]?.providerData?.['gateway.chat_completions'];
      return own?.['reasoning_details'] === undefined ? undefined : { own, signature };
    },
    returnsReasoning: true,
    streamsReasoning: false,
  },
  {
    // Stateless (store: false): every turn's reasoning items go back whole, encrypted content included.
    name: 'openai-responses',
    createAdapter: (connection) =>
      new OpenAIResponsesAdapter({
        ...connectionOptions(connection),
        store: false,
        reasoning: { effort: 'low', summary: 'auto' },
      }),
    startServer: (plan) => startResponsesConformanceServer(plan),
    reasoningOf: (message) => {
      const encrypted = message.reasoning?.map(
        (part) => part.providerData?.['openai.responses']?.['encrypted_content'],
      );
      return encrypted === undefined || encrypted.length === 0 || encrypted.some((item) => item === undefined)
        ? undefined
        : encrypted;
    },
    returnsReasoning: true,
    streamsReasoning: true,
    live: {
      keyVariable: 'OPENAI_API_KEY',
      model: process.env['CONFORMANCE_OPENAI_RESPONSES_MODEL'] ?? 'gpt-5-mini',
    },
  },
  {
    // Extended thinking on every turn: each thinking block goes back whole, signature included.
    name: 'anthropic-thinking',
    createAdapter: (connection) =>
      new AnthropicAdapter({
        ...connectionOptions(connection),
        thinking: { type: 'enabled', budgetTokens: 1024 },
        maxTokens: 4096,
      }),
    startServer: (plan) => startAnthropicConformanceServer(plan),
    reasoningOf: (message) => {
      const blocks = message.reasoning?.map((part) => part.providerData?.['anthropic.messages']);
      return blocks === undefined || blocks.length === 0 || blocks.some((block) => block === undefined)
        ? undefined
        : blocks;
    },
    returnsReasoning: true,
    streamsReasoning: true,
    live: {
      keyVariable: 'ANTHROPIC_API_KEY',
      model: process.env['CONFORMANCE_ANTHROPIC_MODEL'] ?? 'claude-sonnet-4-6',
    },
  },
  {
    name: 'gemini-thinking',
    createAdapter: (connection) =>
      new GeminiAdapter({
        ...connectionOptions(connection),
        thinking: { thinkingLevel: 'LOW', includeThoughts: true },
        // The fake server's model name says no version; the live model is a Gemini 3 anyway.
        nativeStructuredOutput: true,
      }),
    startServer: (plan) => startGeminiConformanceServer(plan),
    reasoningOf: (message) => {
      const parts = message.providerData?.['gemini.generate_content']?.['parts'];
      return Array.isArray(parts) && parts.length > 0 ? parts : undefined;
    },
    returnsReasoning: true,
    streamsReasoning: true,
    live: {
      keyVariable: 'GEMINI_API_KEY',
      model: process.env['CONFORMANCE_GEMINI_MODEL'] ?? 'gemini-3-flash-preview',
    },
  },
];

/** The target named `name`. */
export function conformanceTarget(name: string): ConformanceTarget {
  const target = conformanceTargets.find((candidate) => candidate.name === name);
  if (target === undefined) throw new Error(`no conformance target named ${JSON.stringify(name)}`);
  return target;
}
