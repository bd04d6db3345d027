import { StreamError } from '../../errors/stream-error.js';
import type { ModelResponse, ModelStreamEvent } from '../../model/model-adapter.js';
import { isRecord } from '../shared/normalize-usage.js';
import { originFields } from '../shared/parse-completion.js';
import type { ResponseOrigin } from '../shared/parse-completion.js';
import type { StreamAssembler } from '../shared/stream-attempt.js';
import { toModelResponse } from './anthropic-output.js';

type Block = Record<string, unknown>;

/**
 * Assembles the Server-Sent Events of a streamed message into the message `call` would have read,
 * and turns them into stream events: `thinking_delta` into `reasoning_delta`, `text_delta` into
 * `content_delta`, a `tool_use` block's start and its `input_json_delta`s into `tool_call_delta`.
 * Each block is built whole (a thinking block's signature arrives last); a tool input is parsed
 * once its block stops, and one that never stopped, or does not parse, is kept as the partial JSON
 * it is (see `toModelResponse`).
 */
export class AnthropicStreamAccumulator implements StreamAssembler {
  private message: Block | undefined;
  private readonly blocks: Block[] = [];
  /** The partial JSON of each `tool_use` block, by block index. */
  private readonly inputs = new Map<number, string>();
  /** Blocks that got `content_block_stop`. */
  private readonly stopped = new Set<number>();
  /** The tool call index of each `tool_use` block, by block index. */
  private readonly toolCallIndexes = new Map<number, number>();
  private delta: Block = {};
  private deltaUsage: Block = {};
  private ended = false;
  readonly #origin: ResponseOrigin;

  constructor(origin: ResponseOrigin) {
    this.#origin = origin;
  }

  /** True once `message_stop` arrived. */
  get finished(): boolean {
    return this.ended;
  }

  /** Records one event and returns its stream events. (An `error` event is thrown by the SSE reader, retryable.) */
  push(event: unknown): ModelStreamEvent[] {
    if (!isRecord(event)) return [];
    const index = typeof event['index'] === 'number' ? event['index'] : -1;
    switch (event['type']) {
      case 'message_start':
        if (isRecord(event['message'])) this.message = event['message'];
        return [];
      case 'content_block_start': {
        const block = isRecord(event['content_block']) ? { ...event['content_block'] } : {};
        this.blocks[index] = block;
        if (block['type'] !== 'tool_use') return [];
        this.inputs.set(index, '');
        const toolIndex = this.toolCallIndexes.size;
        this.toolCallIndexes.set(index, toolIndex);
        return [
          {
            type: 'tool_call_delta',
            index: toolIndex,
            ...(typeof block['id'] === 'string' ? { id: block['id'] } : {}),
            ...(typeof block['name'] === 'string' ? { name: block['name'] } : {}),
            argumentsDelta: '',
          },
        ];
      }
      case 'content_block_delta':
        return this.pushDelta(index, isRecord(event['delta']) ? event['delta'] : {});
      case 'content_block_stop':
        this.stopped.add(index);
        return [];
      case 'message_delta':
        if (isRecord(event['delta'])) this.delta = { ...this.delta, ...event['delta'] };
        if (isRecord(event['usage']))
          this.deltaUsage = { ...this.deltaUsage, ...withoutNulls(event['usage']) };
        return [];
      case 'message_stop':
        this.ended = true;
        return [];
      default:
        return [];
    }
  }

  private pushDelta(index: number, delta: Block): ModelStreamEvent[] {
    const block = this.blocks[index];
    if (block === undefined) return [];
    const append = (field: string, value: unknown): string => {
      const text = typeof value === 'string' ? value : '';
      block[field] = (typeof block[field] === 'string' ? block[field] : '') + text;
      return text;
    };
    switch (delta['type']) {
      case 'text_delta': {
        const text = append('text', delta['text']);
        return text === '' ? [] : [{ type: 'content_delta', delta: text }];
      }
      case 'thinking_delta': {
        const text = append('thinking', delta['thinking']);
        return text === '' ? [] : [{ type: 'reasoning_delta', delta: text }];
      }
      case 'signature_delta':
        append('signature', delta['signature']);
        return [];
      case 'citations_delta':
        block['citations'] = [
          ...(Array.isArray(block['citations']) ? block['citations'] : []),
          delta['citation'],
        ];
        return [];
      case 'input_json_delta': {
        const text = typeof delta['partial_json'] === 'string' ? delta['partial_json'] : '';
        this.inputs.set(index, (this.inputs.get(index) ?? '') + text);
        const toolIndex = this.toolCallIndexes.get(index);
        return toolIndex === undefined || text === ''
          ? []
          : [{ type: 'tool_call_delta', index: toolIndex, argumentsDelta: text }];
      }
      default:
        return [];
    }
  }

  /**
   * The assembled response, as `call` returns it for the same message.
   *
   * @throws {StreamError} when the stream ended before `message_stop`; retryable.
   */
  finish(reader: { readonly chunks: number }): ModelResponse {
    const message = this.message;
    if (!this.ended || message === undefined) {
      const count = reader.chunks;
      throw new StreamError({
        ...originFields(this.#origin),
        rawOutput: this.blocks,
        message: `${this.#origin.provider} ended the stream after ${count} event${count === 1 ? '' : 's'} without message_stop: the answer is truncated.`,
      });
    }
    const truncated = new Map<number, string>();
    for (const [index, json] of this.inputs) {
      const input = this.stopped.has(index) ? parseObject(json === '' ? '{}' : json) : undefined;
      if (input === undefined) truncated.set(index, json);
      else this.blocks[index]!['input'] = input;
    }
    const usage = { ...(isRecord(message['usage']) ? message['usage'] : {}), ...this.deltaUsage };
    return toModelResponse(
      { ...message, ...this.delta, content: this.blocks.filter(isRecord), usage },
      this.#origin,
      truncated,
    );
  }
}

function parseObject(json: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}
