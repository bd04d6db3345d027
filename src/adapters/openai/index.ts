// `tool-orchestrator/openai`: the OpenAI adapters (Chat Completions and Responses), and the Chat
// Completions base class to extend for another provider's quirks. Loads the optional peer `openai`
// on first use.
export { OpenAIAdapter } from './openai-adapter.js';
export type { OpenAIAdapterOptions } from './openai-adapter.js';
export { OpenAIResponsesAdapter } from './responses-adapter.js';
export type { OpenAIResponsesAdapterOptions } from './responses-options.js';
export { ChatCompletionsAdapter } from '../shared/chat-completions-adapter.js';
export type { ChatCompletionsAdapterOptions, ResponseFormat } from '../shared/chat-completions-options.js';
export type { ProviderDefaults } from '../shared/create-client.js';
export type { OpenAIClient, OpenAIRequestOptions, OpenAIResponsesClient } from '../shared/openai-client.js';
export { toStrictSchema } from '../shared/strict-schema.js';
