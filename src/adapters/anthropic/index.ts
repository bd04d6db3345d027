// `tool-orchestrator/anthropic`: the Anthropic adapter, over the Messages API. Loads the optional
// peer `@anthropic-ai/sdk` on first use.
export { AnthropicAdapter } from './anthropic-adapter.js';
export type {
  AnthropicAdapterOptions,
  AnthropicCacheOptions,
  AnthropicThinking,
} from './anthropic-options.js';
export type { AnthropicClient, AnthropicRequestOptions } from './anthropic-client.js';
