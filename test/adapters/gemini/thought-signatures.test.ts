import { GoogleGenAI } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GeminiAdapter } from '../../../src/adapters/gemini/index.js';
import { InvalidRequestError } from '../../../src/errors/invalid-request-error.js';
import type { GeminiAdapterOptions } from '../../../src/adapters/gemini/index.js';
import type { AssistantMessage, ChatMessage } from '../../../src/model/messages.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { skipSignature, startFakeGeminiServer } from './fake-gemini-server.js';
import type { FakeGeminiServer, ScriptedAnswer } from './fake-gemini-server.js';

let server: FakeGeminiServer;
let client: GoogleGenAI;
beforeEach(async () => {
  server = await startFakeGeminiServer();
  client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.baseURL } });
});
afterEach(() => server.close());

const thinking = { thinkingLevel: 'LOW', includeThoughts: true } as const;

function adapter(options: Partial<GeminiAdapterOptions> = {}): GeminiAdapter {
  return new GeminiAdapter({ model: 'gemini-3-flash-preview', client, thinking, timeout: 5000, ...options });
}

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => {
    if (city === 'Atlantis') throw new Error('no such city');
    return { city, sky: 'sunny' };
  },
});

type Part = Record<string, unknown>;
type Content = { role: string; parts: Part[] };
const contentsOf = (index: number): Content[] => server.requests[index]!.body['contents'] as Content[];
const refusals = (): unknown[] => server.requests.map((request) => request.refusal);
const signaturesOf = (contents: readonly Content[]): unknown[][] =>
  contents.map((content) => content.parts.map((part) => part['thoughtSignature'] !== undefined));

function callTurn(thought: string, ...cities: string[]): ScriptedAnswer {
  return {
    type: 'turn',
    parts: [
      { type: 'thought', text: thought },
      ...cities.map((city) => ({ type: 'call' as const, name: 'get_weather', args: { city } })),
    ],
  };
}

describe('GeminiAdapter through ToolOrchestrator, with thinking on every turn', () => {
  for (const stream of [false, true]) {
    it(`sends every thought signature back on the part it came on, over a three-turn loop of parallel and sequential calls (stream: ${stream})`, async () => {
      server.enqueue(
        callTurn('Paris and Rome first.', 'Paris', 'Rome'),
        {
          type: 'turn',
          parts: [
            { type: 'thought', text: 'Now Oslo, then Atlantis.', signed: true },
            { type: 'text', text: 'Now Oslo.' },
            { type: 'call', name: 'get_weather', args: { city: 'Oslo' }, id: 'fc_oslo' },
          ],
        },
        callTurn('And Atlantis.', 'Atlantis'),
        {
          type: 'turn',
          parts: [
            { type: 'thought', text: 'Done.' },
            { type: 'text', text: 'Sunny.', signed: true },
          ],
        },
      );
      const events: string[] = [];
      const orchestrator = new ToolOrchestrator(
        adapter(),
        { get_weather: getWeather },
        { maxTurns: 6, stream },
      );
      orchestrator.on('reasoning_delta', (event) => events.push(event.data.delta));
      const result = await orchestrator.run([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris, Rome, Oslo, Atlantis?' },
      ]);
      expect(refusals()).toEqual([undefined, undefined, undefined, undefined]);
      expect(result.stopReason).toBe('final');
      expect(result.content).toBe('Sunny.');
      const last = contentsOf(3);
      expect(last.map((content) => content.role)).toEqual([
        'user',
        'model',
        'user',
        'model',
        'user',
        'model',
        'user',
      ]);
      // The first call of each step is signed; a signed thought keeps its signature.
      expect(signaturesOf(last)).toEqual([
        [false],
        [false, true, false],
        [false, false],
        [true, false, true],
        [false],
        [false, true],
        [false],
      ]);
      // The model turns sent back are, part for part, what the server issued.
      const assistants = result.messages.filter(
        (message): message is AssistantMessage => message.role === 'assistant',
      );
      const issued = assistants
        .slice(0, 3)
        .map((message) => message.providerData?.['gemini.generate_content']?.['parts']);
      expect([last[1]!.parts, last[3]!.parts, last[5]!.parts]).toEqual(issued);
      // Tool results: one user content per turn, in call order, errors as { error }.
      expect(last[2]!.parts).toEqual([
        { functionResponse: { name: 'get_weather', response: { output: '{"city":"Paris","sky":"sunny"}' } } },
        { functionResponse: { name: 'get_weather', response: { output: '{"city":"Rome","sky":"sunny"}' } } },
      ]);
      expect(last[4]!.parts).toEqual([
        {
          functionResponse: {
            id: 'fc_oslo',
            name: 'get_weather',
            response: { output: '{"city":"Oslo","sky":"sunny"}' },
          },
        },
      ]);
      const atlantis = (last[6]!.parts[0]!['functionResponse'] as Record<string, unknown>)['response'];
      expect(Object.keys(atlantis as object)).toEqual(['error']);
      // Thought summaries are reasoning parts, streamed as reasoning deltas.
      expect(assistants[0]!.reasoning?.map((part) => part.text)).toEqual(['Paris and Rome first.']);
      expect(assistants[1]!.tool_calls?.[0]!.id).toBe('fc_oslo');
      if (stream)
        expect(events.join('')).toBe('Paris and Rome first.Now Oslo, then Atlantis.And Atlantis.Done.');
    });
  }

  it('sends a hand-written tool-call turn with the skip value on its first call, and warns', async () => {
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: 'Sunny in both.' }] });
    const warnings: string[] = [];
    const orchestrator = new ToolOrchestrator(adapter(), { get_weather: getWeather });
    orchestrator.on('warning', (event) => warnings.push(event.data.code));
    const history: ChatMessage[] = [
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'sunny' },
      { role: 'tool', tool_call_id: 'b', content: 'sunny' },
    ];
    const result = await orchestrator.run(history);
    expect(refusals()).toEqual([undefined]);
    expect(result.content).toBe('Sunny in both.');
    expect(contentsOf(0)[1]!.parts.map((part) => part['thoughtSignature'])).toEqual([
      skipSignature,
      undefined,
    ]);
    expect(warnings).toEqual(['thought_signature_skipped']);
  });

  it("leaves the transcript's stored parts as they were when it merges two model turns into one content", async () => {
    server.enqueue(
      { type: 'turn', parts: [{ type: 'text', text: 'First.' }] },
      { type: 'turn', parts: [{ type: 'text', text: 'Second.' }] },
      { type: 'turn', parts: [{ type: 'text', text: 'Third.' }] },
    );
    const gemini = adapter();
    const user: ChatMessage = { role: 'user', content: 'Say something.' };
    const turn = async (messages: ChatMessage[]): Promise<AssistantMessage> => {
      const response = await gemini.call(messages, []);
      return {
        role: 'assistant',
        content: response.content,
        ...(response.providerData ? { providerData: response.providerData } : {}),
      };
    };
    const first = await turn([user]);
    const second = await turn([user, first, user]);
    const before = structuredClone([first, second]);
    // Two model turns in a row (an edited transcript): one model content on the wire.
    await gemini.call([user, first, second, user], []);
    expect([first, second]).toEqual(before);
    expect(contentsOf(2).map((content) => content.role)).toEqual(['user', 'model', 'user']);
  });

  it('sends an earlier exchange without signatures as it is: only the current turn is validated', async () => {
    server.enqueue({ type: 'turn', parts: [{ type: 'text', text: 'Oslo too.' }] });
    const warnings: string[] = [];
    const orchestrator = new ToolOrchestrator(adapter(), { get_weather: getWeather });
    orchestrator.on('warning', (event) => warnings.push(event.data.code));
    await orchestrator.run([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'sunny' },
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'And Oslo?' },
    ]);
    expect(refusals()).toEqual([undefined]);
    expect(contentsOf(0)[1]!.parts[0]!['thoughtSignature']).toBeUndefined();
    expect(warnings).toEqual([]);
  });
  it('is refused, as Gemini refuses it, when a saved turn comes back with a signature altered or moved: InvalidRequestError, not retried', async () => {
    server.enqueue(callTurn('Paris.', 'Paris'));
    const first = await adapter().call([{ role: 'user', content: 'Weather in Paris?' }], []);
    const parts = first.providerData?.['gemini.generate_content']?.['parts'] as Record<string, unknown>[];
    const signature = String(parts[1]!['thoughtSignature']);
    const transcript = (changed: Record<string, unknown>[]): ChatMessage[] => [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        ...(first.tool_calls === undefined ? {} : { tool_calls: first.tool_calls }),
        providerData: { 'gemini.generate_content': { parts: changed as never } },
      },
      { role: 'tool', tool_call_id: first.tool_calls![0]!.id, content: 'sunny' },
    ];
    const altered = [parts[0]!, { ...parts[1]!, thoughtSignature: `${signature.slice(0, -2)}AA` }];
    const moved = [
      { ...parts[0]!, thoughtSignature: signature },
      { functionCall: parts[1]!['functionCall'] },
    ];
    for (const changed of [altered, moved]) {
      const failure = await adapter({ maxRetries: 2 })
        .call(transcript(changed), [])
        .catch((thrown: unknown) => thrown);
      expect(failure).toBeInstanceOf(InvalidRequestError);
      expect(failure).toMatchObject({ status: 400, providerCode: 'INVALID_ARGUMENT' });
    }
    expect(refusals()).toEqual([
      undefined,
      expect.stringContaining('Corrupted thought signature'),
      expect.stringContaining('does not belong to this part'),
    ]);
  });
});

describe('the fake Gemini server refuses what Gemini refuses', () => {
  const send = (contents: Content[]): Promise<unknown> =>
    client.models
      .generateContent({ model: 'gemini-3-flash-preview', contents })
      .catch((thrown: unknown) => thrown);

  it('a role other than user and model, and function responses that do not answer the calls before them', async () => {
    await send([{ role: 'assistant', parts: [{ text: 'Hi' }] }]);
    await send([
      { role: 'user', parts: [{ text: 'Weather?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: {} }, thoughtSignature: skipSignature }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_time', response: { output: 'noon' } } }] },
    ]);
    await send([
      { role: 'user', parts: [{ text: 'Weather?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: {} }, thoughtSignature: skipSignature }],
      },
      { role: 'user', parts: [{ text: 'No result.' }] },
    ]);
    expect(refusals()).toEqual([
      expect.stringContaining('Please use a valid role: user, model.'),
      expect.stringContaining('does not answer function call 0 (get_weather)'),
      expect.stringContaining(
        'the number of function response parts is equal to the number of function call parts',
      ),
    ]);
  });
});
