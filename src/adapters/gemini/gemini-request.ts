import type { ChatMessage } from '../../model/messages.js';
import type {
  ModelToolDefinition,
  ModelWarning,
  ResponseFormat,
  ToolChoice,
} from '../../model/model-adapter.js';
import type { GeminiRequest } from './gemini-client.js';
import type { GeminiAdapterOptions } from './gemini-options.js';
import { toFunctionDeclarations, toToolConfig } from './gemini-tools.js';
import { toGeminiTranscript } from './gemini-transcript.js';

/** What {@link buildGeminiRequest} takes. */
export interface GeminiRequestInput {
  readonly options: GeminiAdapterOptions;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  readonly toolChoice: ToolChoice | undefined;
  /** A call's response format, sent as `responseJsonSchema`; checked by the caller. */
  readonly responseFormat?: ResponseFormat | undefined;
  /** Told what the request changed so the API would take it (`thought_signature_skipped`). */
  readonly warn: (warning: ModelWarning) => void;
}

/**
 * Builds the `generateContent` parameters: `model`, `contents`, and a `config` of
 * `systemInstruction`, `tools` (`functionDeclarations`), `toolConfig`, `thinkingConfig`,
 * `maxOutputTokens`, `temperature`, and `responseMimeType: 'application/json'` with
 * `responseJsonSchema` (the response format's schema, without `$schema`), each only when set. The signal and the client's HTTP
 * options are added per attempt.
 *
 * @throws {InvalidArgumentError} for a tool schema or a content part Gemini cannot take.
 */
export function buildGeminiRequest(input: GeminiRequestInput): GeminiRequest {
  const { options } = input;
  const { systemInstruction, contents } = toGeminiTranscript(input.messages, input.warn);
  const config: Record<string, unknown> = {};
  if (systemInstruction !== undefined) config['systemInstruction'] = systemInstruction;
  if (input.tools.length > 0) {
    config['tools'] = [{ functionDeclarations: toFunctionDeclarations(input.tools) }];
    const toolConfig = toToolConfig(input.toolChoice);
    if (toolConfig !== undefined) config['toolConfig'] = toolConfig;
  }
  if (options.thinking !== undefined) config['thinkingConfig'] = { ...options.thinking };
  if (options.maxOutputTokens !== undefined) config['maxOutputTokens'] = options.maxOutputTokens;
  if (options.temperature !== undefined) config['temperature'] = options.temperature;
  if (input.responseFormat !== undefined) {
    const { $schema: _ignored, ...schema } = input.responseFormat.schema;
    config['responseMimeType'] = 'application/json';
    config['responseJsonSchema'] = schema;
  }
  return { model: options.model, contents, config };
}
