import type { JsonObject } from '../../model/messages.js';
import type { ModelResponse, ModelStreamEvent } from '../../model/model-adapter.js';
import { isRecord } from '../shared/normalize-usage.js';
import { toModelResponse } from './gemini-output.js';

/**
 * Assembles `streamGenerateContent` chunks into the response `call` would have returned, and
 * turns each chunk's parts into deltas: thought text → `reasoning_delta`, text → `content_delta`,
 * a function call (Gemini sends each whole) → one `tool_call_delta`. Text that arrives over
 * several chunks is one part again, and a signature that comes on a later chunk (an empty text
 * part closing the run) goes on that part, as in the non-streamed answer.
 */
export class GeminiStreamAccumulator {
  readonly #provider: string;
  readonly #parts: Record<string, unknown>[] = [];
  #calls = 0;
  #last: Record<string, unknown> = {};
  #finishReason: unknown;
  #finishMessage: unknown;

  constructor(provider: string) {
    this.#provider = provider;
  }

  /** Takes one chunk (as plain JSON); returns its deltas. */
  add(chunk: Readonly<Record<string, unknown>>): ModelStreamEvent[] {
    this.#last = { ...this.#last, ...chunk };
    const candidate = Array.isArray(chunk['candidates']) ? chunk['candidates'].find(isRecord) : undefined;
    if (candidate === undefined) return [];
    if (candidate['finishReason'] !== undefined) this.#finishReason = candidate['finishReason'];
    if (candidate['finishMessage'] !== undefined) this.#finishMessage = candidate['finishMessage'];
    const content = isRecord(candidate['content']) ? candidate['content'] : undefined;
    const parts = Array.isArray(content?.['parts']) ? content['parts'].filter(isRecord) : [];
    const events: ModelStreamEvent[] = [];
    const requestId = typeof chunk['responseId'] === 'string' ? chunk['responseId'] : undefined;
    for (const part of parts) {
      const call = isRecord(part['functionCall']) ? part['functionCall'] : undefined;
      if (call !== undefined) {
        const geminiId = typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : undefined;
        events.push({
          type: 'tool_call_delta',
          index: this.#calls,
          id: geminiId ?? `call_${requestId === undefined ? '' : `${requestId}_`}${this.#calls}`,
          name: typeof call['name'] === 'string' ? call['name'] : '',
          argumentsDelta: JSON.stringify(call['args'] ?? {}),
        });
        this.#calls += 1;
        this.#parts.push({ ...part });
        continue;
      }
      const text = typeof part['text'] === 'string' ? part['text'] : undefined;
      if (text !== undefined && text !== '') {
        events.push({ type: part['thought'] === true ? 'reasoning_delta' : 'content_delta', delta: text });
      }
      this.#merge(part);
    }
    return events;
  }

  /** The response `call` returns for the same answer. */
  finish(): ModelResponse {
    const candidate: Record<string, unknown> = { content: { role: 'model', parts: this.#parts } };
    if (this.#finishReason !== undefined) candidate['finishReason'] = this.#finishReason;
    if (this.#finishMessage !== undefined) candidate['finishMessage'] = this.#finishMessage;
    const seen = this.#parts.length > 0 || this.#finishReason !== undefined;
    return toModelResponse({ ...this.#last, candidates: seen ? [candidate] : [] }, this.#provider);
  }

  /** Appends a text part to the run it continues (same kind, not yet signed), else adds it. */
  #merge(part: Readonly<Record<string, unknown>>): void {
    const previous = this.#parts.at(-1);
    const isText = (value: Readonly<Record<string, unknown>>): boolean =>
      typeof value['text'] === 'string' && Object.keys(value).every((key) => textKeys.has(key));
    if (
      previous !== undefined &&
      isText(previous) &&
      isText(part) &&
      (previous['thought'] === true) === (part['thought'] === true) &&
      previous['thoughtSignature'] === undefined
    ) {
      previous['text'] = `${previous['text'] as string}${part['text'] as string}`;
      if (part['thoughtSignature'] !== undefined) previous['thoughtSignature'] = part['thoughtSignature'];
      return;
    }
    this.#parts.push({ ...part } as JsonObject);
  }
}

/** The keys of a plain text part; a part with any other is never merged. */
const textKeys = new Set(['text', 'thought', 'thoughtSignature']);
