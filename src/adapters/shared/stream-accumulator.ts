import type { JsonValue, ToolCall } from '../../model/messages.js';
import type { FinishReason, ModelResponse, ModelStreamEvent } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import { assembleResponse } from './assemble-response.js';
import { isRecord, normalizeUsage } from './normalize-usage.js';
import {
  mergeStreamedFields,
  providerDataField,
  unknownMessageFields,
  unknownToolCallFields,
} from './provider-fields.js';

interface ToolCallDraft {
  id: string;
  name: string;
  arguments: string;
  providerFields: Record<string, JsonValue> | undefined;
}

/**
 * Assembles streamed Chat Completions chunks into the response `call` would return, and turns
 * each chunk into stream events. Tool-call fragments merge by `index`: `id` and `name` arrive on
 * the first fragment, `arguments` are concatenated. Usage is taken from whichever chunk carries
 * it (OpenAI: a last chunk with `choices: []`; DeepSeek: the `finish_reason` chunk). Fields of
 * the deltas and fragments that have no place in the response are gathered under
 * `providerDataKey`, as `parseCompletion` keeps them from a JSON answer.
 */
export class StreamAccumulator {
  private readonly providerDataKey: string;
  private content = '';
  private providerFields: Record<string, JsonValue> | undefined;
  private reasoning: string | undefined;
  private readonly toolCalls = new Map<number, ToolCallDraft>();
  #finishReason: FinishReason | null = null;
  private usage: Usage | undefined;
  private model: string | undefined;

  constructor(providerDataKey: string) {
    this.providerDataKey = providerDataKey;
  }

  /** The `finish_reason` of the last chunk that carried one; `null` until then. */
  get finishReason(): FinishReason | null {
    return this.#finishReason;
  }

  /** Records one chunk and returns its events, in the order the provider sent the pieces. */
  push(chunk: unknown): ModelStreamEvent[] {
    if (!isRecord(chunk)) return [];
    if (typeof chunk['model'] === 'string') this.model = chunk['model'];
    const usage = normalizeUsage(chunk['usage']);
    if (usage !== undefined) this.usage = usage;
    const choice = Array.isArray(chunk['choices']) ? chunk['choices'][0] : undefined;
    if (!isRecord(choice)) return [];
    if (typeof choice['finish_reason'] === 'string') this.#finishReason = choice['finish_reason'];
    const delta = isRecord(choice['delta']) ? choice['delta'] : {};
    const events: ModelStreamEvent[] = [];
    this.providerFields = mergeStreamedFields(this.providerFields, unknownMessageFields(delta));
    const reasoning = delta['reasoning_content'];
    if (typeof reasoning === 'string') {
      this.reasoning = (this.reasoning ?? '') + reasoning;
      if (reasoning !== '') events.push({ type: 'reasoning_delta', delta: reasoning });
    }
    const content = delta['content'];
    if (typeof content === 'string' && content !== '') {
      this.content += content;
      events.push({ type: 'content_delta', delta: content });
    }
    if (Array.isArray(delta['tool_calls'])) {
      for (const fragment of delta['tool_calls'].filter(isRecord)) events.push(this.pushToolCall(fragment));
    }
    return events;
  }

  /** The assembled response. */
  finish(requestId: string | undefined): ModelResponse {
    const toolCalls: ToolCall[] = [...this.toolCalls.entries()]
      .sort(([left], [right]) => left - right)
      .map(([, draft]) => ({
        id: draft.id,
        type: 'function',
        function: { name: draft.name, arguments: draft.arguments },
        ...providerDataField(this.providerDataKey, draft.providerFields),
      }));
    return assembleResponse({
      content: this.content,
      reasoning: this.reasoning,
      toolCalls,
      providerFields: this.providerFields,
      providerDataKey: this.providerDataKey,
      finishReason: this.#finishReason,
      usage: this.usage,
      requestId,
      model: this.model,
    });
  }

  private pushToolCall(fragment: Record<string, unknown>): ModelStreamEvent {
    const index = typeof fragment['index'] === 'number' ? fragment['index'] : this.toolCalls.size;
    const call = isRecord(fragment['function']) ? fragment['function'] : {};
    const id = typeof fragment['id'] === 'string' && fragment['id'] !== '' ? fragment['id'] : undefined;
    const name = typeof call['name'] === 'string' && call['name'] !== '' ? call['name'] : undefined;
    const argumentsDelta = typeof call['arguments'] === 'string' ? call['arguments'] : '';
    const draft = this.toolCalls.get(index) ?? {
      id: '',
      name: '',
      arguments: '',
      providerFields: undefined,
    };
    draft.providerFields = mergeStreamedFields(draft.providerFields, unknownToolCallFields(fragment));
    // Some compatible servers repeat id and name on later fragments: keep the first.
    if (id !== undefined && draft.id === '') draft.id = id;
    if (name !== undefined && draft.name === '') draft.name = name;
    draft.arguments += argumentsDelta;
    this.toolCalls.set(index, draft);
    return {
      type: 'tool_call_delta',
      index,
      ...(id === undefined ? {} : { id }),
      ...(name === undefined ? {} : { name }),
      argumentsDelta,
    };
  }
}
