import type { AssistantMessage, ToolCall } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';

/** The assistant message exactly as received, but with the unique ids the tool messages answer. */
export function assistantMessage(response: ModelResponse, toolCalls?: readonly ToolCall[]): AssistantMessage {
  return {
    role: 'assistant',
    content: response.content ?? null,
    ...(toolCalls === undefined || toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    ...(response.reasoning_content === undefined ? {} : { reasoning_content: response.reasoning_content }),
    ...(response.reasoning === undefined ? {} : { reasoning: response.reasoning }),
    ...(response.providerData === undefined ? {} : { providerData: response.providerData }),
  };
}

/**
 * Makes ids unique within the run (some local servers send `call_0` every turn, or empty ids);
 * `originalIds[i]` is set where an id changed.
 */
export function uniqueToolCalls(
  toolCalls: readonly ToolCall[],
  turn: number,
  seen: Set<string>,
): { toolCalls: readonly ToolCall[]; originalIds: (string | undefined)[] } {
  const originalIds: (string | undefined)[] = [];
  let changed = false;
  const result = toolCalls.map((toolCall, index) => {
    const id = toolCall.id;
    if (id && !seen.has(id)) {
      seen.add(id);
      return toolCall;
    }
    const base = id || `call_${turn}_${index}`;
    let unique = base;
    for (
      let suffix = 2;
      seen.has(unique) || (unique !== id && toolCalls.some((other) => other.id === unique));
      suffix++
    ) {
      unique = `${base}_${suffix}`;
    }
    seen.add(unique);
    // A null id (outside the contract, let through by checkResponse) is no id to report.
    if (typeof id === 'string') originalIds[index] = id;
    changed = true;
    return { ...toolCall, id: unique };
  });
  return { toolCalls: changed ? result : toolCalls, originalIds };
}
