import { sameContent } from '../model/content-parts.js';
import type { ChatMessage } from '../model/messages.js';
import type { TraceContentPart, TraceEvent } from '../tracing/trace-events.js';

/**
 * The JSONL trace format. Every event is one line, as emitted, with two savings that keep a file
 * linear in the length of the run (a verbatim `llm_call` repeats the whole transcript each turn):
 *
 * - an `llm_call` line holds only the messages added since the run's previous call, in `messages`,
 *   and how many earlier messages it shares with that call, in `messagesOffset`; a tool message
 *   whose content is its `tool_result`'s string `content` is written as `{"role": "tool",
 *   "tool_call_id": ..., "contentFromToolResult": true}`;
 * - a `tool_result` whose `result` is the very string sent as `content` is written with
 *   `"resultIsContent": true` instead of a second copy.
 *
 * `readJsonl` undoes both, so what it returns equals what the run emitted.
 */
interface EncodedToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly contentFromToolResult: true;
}

/** What one run needs remembered between its lines, on either side. */
interface RunMemory {
  /** The messages of the run's latest `llm_call`, in full. */
  transcript: readonly ChatMessage[];
  /** `tool_result` content by tool call id. */
  readonly toolContents: Map<string, string | readonly TraceContentPart[]>;
}

/** Turns events into JSON-ready objects in the JSONL format; one instance per file. */
export class TraceEventEncoder {
  readonly #runs = new Map<string, RunMemory>();

  /** The object to write for `event`: the event itself unless one of the savings applies. */
  encode(event: TraceEvent): unknown {
    switch (event.type) {
      case 'llm_call':
        return this.#encodeModelCall(event);
      case 'tool_result': {
        const data = event.data;
        this.#memory(event.runId).toolContents.set(data.toolCallId, data.content);
        if (typeof data.result !== 'string' || data.result !== data.content) return event;
        const { result: _result, ...rest } = data;
        return { ...event, data: { ...rest, resultIsContent: true } };
      }
      case 'run_end':
        this.#runs.delete(event.runId);
        return event;
      default:
        return event;
    }
  }

  #encodeModelCall(event: TraceEvent & { type: 'llm_call' }): unknown {
    const memory = this.#memory(event.runId);
    const messages = event.data.messages;
    const offset = sharedPrefixLength(memory.transcript, messages);
    memory.transcript = messages;
    const added: (ChatMessage | EncodedToolMessage)[] = [];
    for (let index = offset; index < messages.length; index++) {
      const message = messages[index]!;
      added.push(
        message.role === 'tool' && memory.toolContents.get(message.tool_call_id) === message.content
          ? { role: 'tool', tool_call_id: message.tool_call_id, contentFromToolResult: true }
          : message,
      );
    }
    return { ...event, data: { ...event.data, messages: added, messagesOffset: offset } };
  }

  #memory(runId: string): RunMemory {
    let memory = this.#runs.get(runId);
    if (memory === undefined) {
      memory = { transcript: [], toolContents: new Map() };
      this.#runs.set(runId, memory);
    }
    return memory;
  }
}

/** Turns parsed JSONL lines back into the events that were emitted; one instance per file. */
export class TraceEventDecoder {
  readonly #runs = new Map<string, RunMemory & { transcript: ChatMessage[] }>();

  decode(line: Record<string, unknown>): TraceEvent {
    const runId = typeof line['runId'] === 'string' ? line['runId'] : '';
    const data = line['data'];
    if (typeof data !== 'object' || data === null) return line as unknown as TraceEvent;
    const record = data as Record<string, unknown>;
    if (line['type'] === 'tool_result') {
      if (typeof record['toolCallId'] === 'string' && typeof record['content'] === 'string') {
        this.#memory(runId).toolContents.set(record['toolCallId'], record['content']);
      }
      if (record['resultIsContent'] === true) {
        const { resultIsContent: _flag, ...rest } = record;
        return { ...line, data: { ...rest, result: record['content'] } } as unknown as TraceEvent;
      }
    } else if (line['type'] === 'llm_call' && typeof record['messagesOffset'] === 'number') {
      return { ...line, data: this.#decodeModelCall(runId, record) } as unknown as TraceEvent;
    }
    return line as unknown as TraceEvent;
  }

  #decodeModelCall(runId: string, record: Record<string, unknown>): Record<string, unknown> {
    const memory = this.#memory(runId);
    const offset = record['messagesOffset'] as number;
    const added = Array.isArray(record['messages']) ? (record['messages'] as unknown[]) : [];
    const restored = added.map((message) => {
      const encoded = message as Partial<EncodedToolMessage>;
      if (encoded?.contentFromToolResult !== true) return message as ChatMessage;
      // Only a string content is written by reference.
      const saved = memory.toolContents.get(encoded.tool_call_id ?? '');
      const content = typeof saved === 'string' ? saved : '';
      return { role: 'tool', tool_call_id: encoded.tool_call_id ?? '', content } satisfies ChatMessage;
    });
    // The transcript only grows between calls, so later calls push onto the same array and each
    // call reads a prefix of it; a call that rewrites earlier messages starts a new array. The
    // prefix is copied on each read and not kept: a long run would otherwise hold one copy a call.
    if (offset !== memory.transcript.length) memory.transcript = memory.transcript.slice(0, offset);
    const transcript = memory.transcript;
    transcript.push(...restored);
    const count = transcript.length;
    const { messagesOffset: _offset, messages: _messages, ...rest } = record;
    return Object.defineProperty(rest, 'messages', {
      get: () => transcript.slice(0, count),
      enumerable: true,
    });
  }

  #memory(runId: string): RunMemory & { transcript: ChatMessage[] } {
    let memory = this.#runs.get(runId);
    if (memory === undefined) {
      memory = { transcript: [], toolContents: new Map() };
      this.#runs.set(runId, memory);
    }
    return memory;
  }
}

/** How many leading messages two transcripts share: the same objects, or equal ones (files read back). */
export function sharedPrefixLength(previous: readonly ChatMessage[], next: readonly ChatMessage[]): number {
  const limit = Math.min(previous.length, next.length);
  let index = 0;
  while (index < limit && (previous[index] === next[index] || sameMessage(previous[index]!, next[index]!)))
    index++;
  return index;
}

function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  if (a.role !== b.role || !sameContent(a.content, b.content)) return false;
  if (a.role === 'tool') return a.tool_call_id === (b as typeof a).tool_call_id;
  if (a.role !== 'assistant') return a.name === (b as typeof a).name;
  const other = b as typeof a;
  return (
    a.reasoning_content === other.reasoning_content &&
    JSON.stringify(a.tool_calls ?? []) === JSON.stringify(other.tool_calls ?? []) &&
    JSON.stringify(a.reasoning ?? []) === JSON.stringify(other.reasoning ?? []) &&
    JSON.stringify(a.providerData ?? {}) === JSON.stringify(other.providerData ?? {})
  );
}
