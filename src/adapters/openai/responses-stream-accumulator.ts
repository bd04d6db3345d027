import { StreamError } from '../../errors/stream-error.js';
import type { ModelResponse, ModelStreamEvent } from '../../model/model-adapter.js';
import { isRecord } from '../shared/normalize-usage.js';
import { originFields } from '../shared/parse-completion.js';
import type { ResponseOrigin } from '../shared/parse-completion.js';
import type { StreamAssembler } from '../shared/stream-attempt.js';
import { failedResponseError, toModelResponse } from './responses-output.js';

/**
 * Assembles the events of a streamed response into the response `call` would return, and turns
 * them into stream events: `response.output_text.delta` into `content_delta`, reasoning summary
 * (and reasoning text) deltas into `reasoning_delta`, a function call's `output_item.added` and
 * argument deltas into `tool_call_delta`. Each output item is taken whole from
 * `response.output_item.done`: `added` lacks what arrives last, such as `encrypted_content`.
 */
export class ResponsesStreamAccumulator implements StreamAssembler {
  /** Output items from `response.output_item.done`, by `output_index`. */
  private readonly items = new Map<number, unknown>();
  /** The tool call index of each function call item, by `output_index`. */
  private readonly toolCallIndexes = new Map<number, number>();
  /** The response of `response.completed` or `response.incomplete`. */
  private final: Readonly<Record<string, unknown>> | undefined;
  readonly #origin: ResponseOrigin;

  constructor(origin: ResponseOrigin) {
    this.#origin = origin;
  }

  /** True once the response completed (or ended incomplete). */
  get finished(): boolean {
    return this.final !== undefined;
  }

  /**
   * Records one event and returns its stream events.
   *
   * @throws {ServerError} / {RateLimitError} / {UnexpectedResponseError} on `response.failed`.
   * (An `error` event is thrown by the SSE reader as a retryable `StreamError`.)
   */
  push(event: unknown): ModelStreamEvent[] {
    if (!isRecord(event)) return [];
    const outputIndex = typeof event['output_index'] === 'number' ? event['output_index'] : -1;
    switch (event['type']) {
      case 'response.output_text.delta':
        return textDelta('content_delta', event['delta']);
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return textDelta('reasoning_delta', event['delta']);
      case 'response.output_item.added': {
        const item = event['item'];
        if (!isRecord(item) || item['type'] !== 'function_call') return [];
        const index = this.toolCallIndexes.size;
        this.toolCallIndexes.set(outputIndex, index);
        return [
          {
            type: 'tool_call_delta',
            index,
            ...(typeof item['call_id'] === 'string' ? { id: item['call_id'] } : {}),
            ...(typeof item['name'] === 'string' ? { name: item['name'] } : {}),
            argumentsDelta: typeof item['arguments'] === 'string' ? item['arguments'] : '',
          },
        ];
      }
      case 'response.function_call_arguments.delta': {
        const index = this.toolCallIndexes.get(outputIndex);
        const delta = event['delta'];
        if (index === undefined || typeof delta !== 'string' || delta === '') return [];
        return [{ type: 'tool_call_delta', index, argumentsDelta: delta }];
      }
      case 'response.output_item.done':
        this.items.set(outputIndex, event['item']);
        return [];
      case 'response.completed':
      case 'response.incomplete':
        if (isRecord(event['response'])) this.final = event['response'];
        return [];
      case 'response.failed': {
        const response = isRecord(event['response']) ? event['response'] : {};
        throw failedResponseError(response['error'], this.#origin, event);
      }
      default:
        return [];
    }
  }

  /**
   * The assembled response: the final response's fields, with the items from
   * `response.output_item.done` in place of its output.
   *
   * @throws {StreamError} when the stream ended before `response.completed`; retryable.
   */
  finish(reader: { readonly chunks: number }): ModelResponse {
    const final = this.final;
    const eventCount = reader.chunks;
    if (final === undefined) {
      throw new StreamError({
        ...originFields(this.#origin),
        rawOutput: [...this.items.values()],
        message: `${this.#origin.provider} ended the stream after ${eventCount} event${eventCount === 1 ? '' : 's'} without response.completed: the answer is truncated.`,
      });
    }
    const output: unknown[] = Array.isArray(final['output']) ? [...(final['output'] as unknown[])] : [];
    for (const [index, item] of this.items) if (index >= 0) output[index] = item;
    return toModelResponse(final, output, this.#origin);
  }
}

function textDelta(type: 'content_delta' | 'reasoning_delta', delta: unknown): ModelStreamEvent[] {
  return typeof delta === 'string' && delta !== '' ? [{ type, delta }] : [];
}
