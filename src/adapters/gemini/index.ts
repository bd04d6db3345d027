// `tool-orchestrator/gemini`: the Gemini adapter, over the Gemini API. Loads the optional peer
// `@google/genai` (version 2) on first use.
export { GeminiAdapter } from './gemini-adapter.js';
export type { GeminiAdapterOptions, GeminiThinkingConfig } from './gemini-options.js';
export type { GeminiClient, GeminiRequest } from './gemini-client.js';
