/** Any value JSON can carry. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject;

/** A JSON object. */
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * What a provider sent that it needs back exactly as it sent it (an encrypted reasoning item, a
 * signature, an item id, a gateway's extra fields), under the key of the adapter that received it
 * (its `providerDataKey`, e.g. `'openai.responses'`). An adapter reads and sends back only its own
 * key, so one API is never sent another's opaque data; the orchestrator never reads any of it.
 *
 * @example
 * { 'openai.responses': { id: 'rs_68a1', encrypted_content: 'gAAAAB...' } }
 */
export type ProviderData = { readonly [providerDataKey: string]: JsonObject };

/** A tool call requested by the model, in the OpenAI chat-completions shape. */
export interface ToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    /** The arguments exactly as the model produced them: a JSON string that may be invalid. */
    readonly arguments: string;
  };
  /** What the provider needs back with this call (a Gemini thought signature, a Responses item id). */
  readonly providerData?: ProviderData;
}

/**
 * One span of the model's reasoning, in the order the provider returned it: an OpenAI Responses
 * reasoning item, an Anthropic thinking or redacted-thinking block, a Gemini thought. `text` is
 * what can be shown; what the provider verifies when it is sent back (encrypted content, a
 * signature) is in `providerData`, passed through untouched.
 */
export interface ReasoningPart {
  readonly type: 'reasoning';
  /** The reasoning as text (the thinking, or the provider's summary of it), when the provider shows it. */
  readonly text?: string;
  /** True when the provider withheld the reasoning (Anthropic's redacted thinking): nothing to show. */
  readonly redacted?: boolean;
  readonly providerData?: ProviderData;
}

/** A system prompt message. */
export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
  readonly name?: string;
}

/** A message from the user. */
export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
  readonly name?: string;
}

/**
 * A message from the model. Its reasoning and provider data are kept exactly as the provider
 * sent them, so the same provider can verify them when the transcript is sent back.
 */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly tool_calls?: readonly ToolCall[];
  /** DeepSeek's (and compatible servers') reasoning text, where DeepSeek users read it. */
  readonly reasoning_content?: string | null;
  /** The reasoning spans of this turn, in the provider's order (OpenAI Responses, Anthropic, Gemini). */
  readonly reasoning?: readonly ReasoningPart[];
  /** Fields of the provider's message that have no place above, kept for the provider. */
  readonly providerData?: ProviderData;
  readonly name?: string;
}

/** The result of one tool call, sent back to the model. */
export interface ToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/** Any message of a chat transcript, in the OpenAI chat-completions format. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a chat message. */
export type ChatRole = ChatMessage['role'];
