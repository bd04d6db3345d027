import { GoogleGenAI } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeminiAdapter } from '../../../src/adapters/gemini/index.js';
import type { ChatMessage } from '../../../src/model/messages.js';
import type {
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../../../src/model/model-adapter.js';
import { startFakeGeminiServer } from './fake-gemini-server.js';
import type { FakeGeminiServer, ScriptedAnswer } from './fake-gemini-server.js';

let server: FakeGeminiServer;
let client: GoogleGenAI;
beforeEach(async () => {
  server = await startFakeGeminiServer();
  client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.baseURL } });
});
afterEach(() => server.close());

const adapter = (): GeminiAdapter =>
  new GeminiAdapter({
    model: 'gemini-3-flash-preview',
    client,
    timeout: 5000,
    thinking: { thinkingLevel: 'LOW', includeThoughts: true },
  });
const user: ChatMessage[] = [{ role: 'user', content: 'Read a.txt and b.txt' }];
const tools: ModelToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];
const answer: ScriptedAnswer = {
  type: 'turn',
  parts: [
    { type: 'thought', text: 'Two files, in parallel.', signed: true },
    { type: 'text', text: 'Reading them.' },
    { type: 'call', name: 'read_file', args: { path: 'a.txt' }, id: 'fc_a' },
    { type: 'call', name: 'read_file', args: { path: 'b.txt' }, id: 'fc_b' },
  ],
};

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const collected: ModelStreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** The response with its signatures and response id replaced: each request gets its own. */
function normalised(response: ModelResponse): unknown {
  return JSON.parse(
    JSON.stringify(response)
      .replace(/"thoughtSignature":"[^"]+"/g, '"thoughtSignature":"<signature>"')
      .replace(/resp_\d+/g, '<response>'),
  );
}

describe('GeminiAdapter streaming', () => {
  it('streams thoughts and text in pieces and each call whole, then the response call returns for the same answer', async () => {
    server.enqueue(answer, answer);
    const events = await collect(adapter().stream(user, tools));
    expect(events.filter((event) => event.type !== 'response')).toEqual([
      { type: 'reasoning_delta', delta: 'Two files, i' },
      { type: 'reasoning_delta', delta: 'n parallel.' },
      { type: 'content_delta', delta: 'Reading' },
      { type: 'content_delta', delta: ' them.' },
      {
        type: 'tool_call_delta',
        index: 0,
        id: 'fc_a',
        name: 'read_file',
        argumentsDelta: '{"path":"a.txt"}',
      },
      {
        type: 'tool_call_delta',
        index: 1,
        id: 'fc_b',
        name: 'read_file',
        argumentsDelta: '{"path":"b.txt"}',
      },
    ]);
    const streamed = events.at(-1);
    expect(streamed?.type).toBe('response');
    const called = await adapter().call(user, tools);
    expect(normalised((streamed as { response: ModelResponse }).response)).toEqual(normalised(called));
    expect(called.finish_reason).toBe('tool_calls');
    expect(called.reasoning).toEqual([
      {
        type: 'reasoning',
        text: 'Two files, in parallel.',
        providerData: { 'gemini.generate_content': { thoughtSignature: expect.any(String) } },
      },
    ]);
    // The thought's signature came on its last piece; it is on the one thought part again.
    const parts = (streamed as { response: ModelResponse }).response.providerData?.[
      'gemini.generate_content'
    ]?.['parts'] as Record<string, unknown>[];
    expect(parts.map((part) => Object.keys(part).sort())).toEqual([
      ['text', 'thought', 'thoughtSignature'],
      ['text'],
      ['functionCall', 'thoughtSignature'],
      ['functionCall'],
    ]);
  });
});
