// `tool-orchestrator/deepseek`: the DeepSeek adapter. Loads the optional peer `openai` on first use.
export { DeepSeekAdapter } from './deepseek-adapter.js';
export type { DeepSeekAdapterOptions } from './deepseek-adapter.js';
export type { ReasoningReplay } from '../shared/build-request-body.js';
export type { ChatCompletionsAdapterOptions, ResponseFormat } from '../shared/chat-completions-options.js';
export type { OpenAIClient, OpenAIRequestOptions } from '../shared/openai-client.js';
