import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIResponsesAdapter } from '../../../src/adapters/openai/index.js';
import type { OpenAIResponsesAdapterOptions } from '../../../src/adapters/openai/index.js';
import { InvalidRequestError } from '../../../src/errors/invalid-request-error.js';
import type { AssistantMessage, ChatMessage } from '../../../src/model/messages.js';
import type { ModelToolDefinition } from '../../../src/model/model-adapter.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { startFakeResponsesServer } from './fake-responses-server.js';
import type { FakeResponsesServer, ScriptedAnswer } from './fake-responses-server.js';

let server: FakeResponsesServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startFakeResponsesServer();
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

function adapter(options: Partial<OpenAIResponsesAdapterOptions> = {}): OpenAIResponsesAdapter {
  return new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client, ...options });
}

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, sky: 'sunny' }),
});

const weatherTool: ModelToolDefinition = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather of a city', parameters: getWeather.inputSchema },
};

function toolTurn(thought: string, city: string): ScriptedAnswer {
  return {
    type: 'turn',
    output: [
      { type: 'reasoning', summary: [thought] },
      { type: 'function_call', name: 'get_weather', arguments: JSON.stringify({ city }) },
    ],
  };
}

const answerTurn: ScriptedAnswer = {
  type: 'turn',
  output: [
    { type: 'reasoning', summary: ['All three known.'] },
    { type: 'message', text: 'Sunny in Paris, Rome and Oslo.' },
  ],
};

type Item = Record<string, unknown>;
const inputOf = (index: number): Item[] => server.requests[index]!.body['input'] as Item[];

/** The reasoning items each request sent back, as `id:encrypted_content`. */
function replayedReasoning(index: number): string[] {
  return inputOf(index)
    .filter((item) => item['type'] === 'reasoning')
    .map((item) => `${String(item['id'])}:${String(item['encrypted_content'])}`);
}

describe('OpenAIResponsesAdapter through ToolOrchestrator', () => {
  for (const stream of [false, true]) {
    it(`replays every earlier reasoning item whole and in order over a three-turn tool loop (stream: ${stream})`, async () => {
      server.enqueue(
        toolTurn('Paris first.', 'Paris'),
        toolTurn('Then Rome.', 'Rome'),
        toolTurn('Last, Oslo.', 'Oslo'),
        answerTurn,
      );
      const orchestrator = new ToolOrchestrator(
        adapter(),
        { get_weather: getWeather },
        { maxTurns: 6, stream },
      );
      const result = await orchestrator.run([{ role: 'user', content: 'Weather in Paris, Rome, Oslo?' }]);
      expect(server.requests.map((request) => request.refusal)).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(result.stopReason).toBe('final');
      expect(result.content).toBe('Sunny in Paris, Rome and Oslo.');
      // Every request asks for the encrypted reasoning and sends back all that was issued before it.
      const issued = server.requests.map((request) => request.body['include']);
      expect(issued).toEqual(Array(4).fill(['reasoning.encrypted_content']));
      const assistants = result.messages.filter(
        (message): message is AssistantMessage => message.role === 'assistant',
      );
      const held = assistants.flatMap((message) =>
        (message.reasoning ?? []).map((part) => {
          const item = part.providerData?.['openai.responses'];
          return `${String(item?.['id'])}:${String(item?.['encrypted_content'])}`;
        }),
      );
      expect(held).toHaveLength(4);
      expect(held.every((entry) => /^rs_\d+:gAAAAB/.test(entry))).toBe(true);
      expect([0, 1, 2, 3].map(replayedReasoning)).toEqual([
        [],
        held.slice(0, 1),
        held.slice(0, 2),
        held.slice(0, 3),
      ]);
      expect(assistants.map((message) => message.reasoning?.map((part) => part.text))).toEqual([
        ['Paris first.'],
        ['Then Rome.'],
        ['Last, Oslo.'],
        ['All three known.'],
      ]);
      // The last request: reasoning → function_call → function_call_output, three times, in order.
      expect(inputOf(3).map((item) => item['type'] ?? item['role'])).toEqual([
        'user',
        'reasoning',
        'function_call',
        'function_call_output',
        'reasoning',
        'function_call',
        'function_call_output',
        'reasoning',
        'function_call',
        'function_call_output',
      ]);
      const calls = inputOf(3).filter((item) => item['type'] === 'function_call');
      const outputs = inputOf(3).filter((item) => item['type'] === 'function_call_output');
      expect(outputs.map((item) => item['call_id'])).toEqual(calls.map((item) => item['call_id']));
      expect(
        calls.every((item) => typeof item['id'] === 'string' && String(item['id']).startsWith('fc_')),
      ).toBe(true);
    });
  }
});

const user: ChatMessage = { role: 'user', content: 'Weather in Paris?' };
const toolResult = (message: AssistantMessage, index = 0): ChatMessage => ({
  role: 'tool',
  tool_call_id: message.tool_calls![index]!.id,
  content: '{"sky":"sunny"}',
});

/** One call's response as the assistant message the orchestrator appends. */
async function turn(
  model: OpenAIResponsesAdapter,
  messages: readonly ChatMessage[],
): Promise<AssistantMessage> {
  const {
    content,
    tool_calls: toolCalls,
    reasoning,
    providerData,
  } = await model.call(messages, [weatherTool]);
  return {
    role: 'assistant',
    content,
    ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(providerData === undefined ? {} : { providerData }),
  };
}

describe('what OpenAIResponsesAdapter sends back of a turn', () => {
  it('leaves out a reasoning item nothing followed (an answer cut short while reasoning)', async () => {
    server.enqueue(
      {
        type: 'turn',
        output: [{ type: 'reasoning', summary: ['Thinking...'] }],
        incomplete: 'max_output_tokens',
      },
      answerTurn,
    );
    const model = adapter();
    const cut = await model.call([user], []);
    expect(cut.finish_reason).toBe('length');
    expect(cut.content).toBeNull();
    expect(cut.reasoning).toHaveLength(1);
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: null,
      reasoning: cut.reasoning!,
      providerData: cut.providerData!,
    };
    await model.call([user, assistant, { role: 'user', content: 'Go on.' }], []);
    expect(server.requests[1]!.refusal).toBeUndefined();
    expect(inputOf(1)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'user', content: 'Go on.' },
    ]);
  });

  it('under store: false, leaves out a reasoning item without encrypted content and sends what followed it as new items', async () => {
    server.enqueue(toolTurn('Paris.', 'Paris'), answerTurn);
    // Without include, OpenAI issues reasoning items with no encrypted content.
    const model = adapter({ extraBody: { include: [] } });
    const first = await turn(model, [user]);
    expect(first.reasoning?.[0]?.providerData?.['openai.responses']?.['encrypted_content']).toBeUndefined();
    const result = await model.call([user, first, toolResult(first)], []);
    expect(server.requests[1]!.refusal).toBeUndefined();
    expect(result.content).toBe('Sunny in Paris, Rome and Oslo.');
    expect(inputOf(1)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        type: 'function_call',
        status: 'completed',
        call_id: first.tool_calls![0]!.id,
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      { type: 'function_call_output', call_id: first.tool_calls![0]!.id, output: '{"sky":"sunny"}' },
    ]);
  });

  it('sends the message items OpenAI returned as they were, and an edited answer as a new item without its reasoning', async () => {
    server.enqueue(answerTurn, answerTurn, answerTurn);
    const model = adapter();
    const first = await turn(model, [user]);
    const next: ChatMessage = { role: 'user', content: 'And tomorrow?' };
    await model.call([user, first, next], []);
    expect(server.requests[1]!.refusal).toBeUndefined();
    const replayed = inputOf(1).slice(1, 3);
    expect(replayed.map((item) => item['type'])).toEqual(['reasoning', 'message']);
    expect(replayed[1]).toEqual(first.providerData!['openai.responses']!['messages']![0 as never]);
    await model.call([user, { ...first, content: 'Sunny.' }, next], []);
    expect(server.requests[2]!.refusal).toBeUndefined();
    expect(inputOf(2)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'And tomorrow?' },
    ]);
  });

  it('keeps the order of the output items OpenAI returned (a message before the call, reasoning between calls)', async () => {
    server.enqueue(
      {
        type: 'turn',
        output: [
          { type: 'reasoning', summary: ['Paris.'] },
          { type: 'message', text: 'Looking it up.' },
          { type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'reasoning', summary: ['Rome too.'] },
          { type: 'function_call', name: 'get_weather', arguments: '{"city":"Rome"}' },
        ],
      },
      answerTurn,
    );
    const model = adapter();
    const first = await turn(model, [user]);
    await model.call([user, first, toolResult(first, 0), toolResult(first, 1)], []);
    expect(server.requests[1]!.refusal).toBeUndefined();
    expect(inputOf(1).map((item) => item['type'] ?? item['role'])).toEqual([
      'user',
      'reasoning',
      'message',
      'function_call',
      'reasoning',
      'function_call',
      'function_call_output',
      'function_call_output',
    ]);
  });

  it('with store: true and previousResponseId, sends previous_response_id and only the new items', async () => {
    server.enqueue(toolTurn('Paris.', 'Paris'), answerTurn);
    const model = adapter({ store: true, previousResponseId: true });
    const first = await turn(model, [{ role: 'system', content: 'Be brief.' }, user]);
    expect(server.requests[0]!.body['store']).toBe(true);
    expect(server.requests[0]!.body['include']).toBeUndefined();
    await model.call([{ role: 'system', content: 'Be brief.' }, user, first, toolResult(first)], []);
    expect(server.requests[1]!.refusal).toBeUndefined();
    const responseId = first.providerData!['openai.responses']!['responseId'];
    expect(responseId).toMatch(/^resp_/);
    expect(server.requests[1]!.body['previous_response_id']).toBe(responseId);
    expect(inputOf(1)).toEqual([
      { type: 'function_call_output', call_id: first.tool_calls![0]!.id, output: '{"sky":"sunny"}' },
    ]);
  });

  it('with store: true alone, sends the whole transcript with reasoning items by the id OpenAI keeps', async () => {
    server.enqueue(toolTurn('Paris.', 'Paris'), answerTurn);
    const model = adapter({ store: true });
    const first = await turn(model, [user]);
    await model.call([user, first, toolResult(first)], []);
    expect(server.requests[1]!.refusal).toBeUndefined();
    expect(server.requests[1]!.body['previous_response_id']).toBeUndefined();
    expect(inputOf(1).map((item) => item['type'] ?? item['role'])).toEqual([
      'user',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
  });

  it("never sends another API's reasoning or fields, and maps a Chat Completions transcript to items", async () => {
    server.enqueue(answerTurn);
    const foreign: AssistantMessage = {
      role: 'assistant',
      content: 'Checking.',
      reasoning: [
        { type: 'reasoning', text: 'hmm', providerData: { 'anthropic.messages': { signature: 'sig' } } },
        // Another Responses deployment's item, in this API's shape but under another key.
        {
          type: 'reasoning',
          providerData: {
            'azure.responses': { type: 'reasoning', id: 'rs_azure', summary: [], encrypted_content: 'e' },
          },
        },
      ],
      providerData: { 'deepseek.chat_completions': { extra: true } },
      tool_calls: [
        {
          id: 'call_x',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          providerData: {
            'gemini.generate_content': { thoughtSignature: 'abc' },
            'azure.responses': { id: 'fc_azure' },
          },
        },
      ],
    };
    await adapter().call(
      [
        { role: 'system', content: 'Be brief.' },
        user,
        foreign,
        { role: 'tool', tool_call_id: 'call_x', content: 'sunny' },
      ],
      [],
    );
    expect(server.requests[0]!.refusal).toBeUndefined();
    expect(inputOf(0)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_x', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_x', output: 'sunny' },
    ]);
  });
});

describe('the fake server refuses what OpenAI refuses', () => {
  it('a reasoning item whose encrypted content was altered (400)', async () => {
    server.enqueue(toolTurn('Paris.', 'Paris'));
    const model = adapter({ maxRetries: 0 });
    const first = await turn(model, [user]);
    const item = first.reasoning![0]!.providerData!['openai.responses']!;
    const altered: AssistantMessage = {
      ...first,
      reasoning: [
        {
          ...first.reasoning![0]!,
          providerData: {
            'openai.responses': { ...item, encrypted_content: `${String(item['encrypted_content'])}x` },
          },
        },
      ],
    };
    const error: unknown = await model
      .call([user, altered, toolResult(first)], [])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).message).toContain(
      `The encrypted content for item ${String(item['id'])} could not be verified.`,
    );
  });

  it('a function_call_output without its function_call (400)', async () => {
    const error: unknown = await adapter({ maxRetries: 0 })
      .call([user, { role: 'tool', tool_call_id: 'call_missing', content: 'x' }], [])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).message).toContain(
      'No tool call found for function call output with call_id call_missing.',
    );
  });
});
