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

/** A piece of text in a message's content parts. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/**
 * An image in a message's content parts: at a `url` (`https:` or a `data:` URL), or as base64
 * `data` with its `mediaType` (e.g. `'image/png'`). Exactly one of `url` and `data` is set.
 */
export type ImagePart =
  | { readonly type: 'image'; readonly url: string; readonly mediaType?: string }
  | { readonly type: 'image'; readonly data: string; readonly mediaType: string };

/**
 * A file in a message's content parts (a PDF, a text file): at a `url`, or as base64 `data`,
 * with its `mediaType` (e.g. `'application/pdf'`) and, optionally, the `filename` the model sees.
 * Exactly one of `url` and `data` is set.
 */
export type FilePart =
  | { readonly type: 'file'; readonly url: string; readonly mediaType: string; readonly filename?: string }
  | { readonly type: 'file'; readonly data: string; readonly mediaType: string; readonly filename?: string };

/** One part of a user message's or a tool result's content: text, an image or a file. */
export type ContentPart = TextPart | ImagePart | FilePart;

/** The content of a user message or a tool result: a string, or parts in order. */
export type MessageContent = string | readonly ContentPart[];

/** A message from the user: a string, or parts (text, images, files) in order. */
export interface UserMessage {
  readonly role: 'user';
  readonly content: MessageContent;
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

/** The result of one tool call, sent back to the model: a string, or parts (text, images, files). */
export interface ToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: MessageContent;
}

/** Any message of a chat transcript, in the OpenAI chat-completions format. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a chat message. */
export type ChatRole = ChatMessage['role'];
