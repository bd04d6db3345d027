/**
 * The part of an `@google/genai` client (version 2) that the Gemini adapter uses: a `GoogleGenAI`
 * instance is one. It is declared here rather than imported, so the adapter's type declarations
 * hold without the package's types; cast `await adapter.getClient()` to `GoogleGenAI` for the rest
 * of its API, or keep a reference to the client you inject.
 */
export interface GeminiClient {
  readonly models: {
    /** Sends one `generateContent` request and resolves to the parsed response. */
    generateContent(parameters: GeminiRequest): Promise<object>;
    /** Sends one `streamGenerateContent` request and resolves to its chunks. */
    generateContentStream(parameters: GeminiRequest): Promise<AsyncIterable<object>>;
  };
}

/** What the adapter passes to `models.generateContent`: the model, the contents and the config. */
export interface GeminiRequest {
  model: string;
  contents: { role?: string; parts?: Record<string, unknown>[] }[];
  config: Record<string, unknown>;
}
