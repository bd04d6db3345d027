export { OpenAIAdapter } from './openai-adapter.js';
export type { OpenAIAdapterOptions } from './openai-adapter.js';
export { ChatCompletionsAdapter } from '../shared/chat-completions-adapter.js';
export type { ChatCompletionsAdapterOptions, ResponseFormat } from '../shared/chat-completions-options.js';
export type { OpenAIClient, OpenAIRequestOptions } from '../shared/openai-client.js';
export { toStrictSchema } from '../shared/strict-schema.js';
