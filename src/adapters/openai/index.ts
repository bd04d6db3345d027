// `tool-orchestrator/openai`: the OpenAI adapter, and the Chat Completions base class to extend for
// another provider's quirks. Loads the optional peer `openai` on first use.
export { OpenAIAdapter } from './openai-adapter.js';
export type { OpenAIAdapterOptions } from './openai-adapter.js';
export { ChatCompletionsAdapter } from '../shared/chat-completions-adapter.js';
export type { ChatCompletionsAdapterOptions, ResponseFormat } from '../shared/chat-completions-options.js';
export type { ProviderDefaults } from '../shared/create-client.js';
export type { OpenAIClient, OpenAIRequestOptions } from '../shared/openai-client.js';
export { toStrictSchema } from '../shared/strict-schema.js';
