/** A tool call requested by the model, in the OpenAI chat-completions shape. */
export interface ToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    /** The arguments exactly as the model produced them: a JSON string that may be invalid. */
    readonly arguments: string;
  };
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

/** A message from the model. `reasoning_content` is kept exactly as the provider sent it. */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly tool_calls?: readonly ToolCall[];
  readonly reasoning_content?: string | null;
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
