import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import type { AnthropicAdapterOptions } from '../../../src/adapters/anthropic/index.js';
import { InvalidRequestError } from '../../../src/errors/invalid-request-error.js';
import type { AssistantMessage, ChatMessage } from '../../../src/model/messages.js';
import type { ModelToolDefinition } from '../../../src/model/model-adapter.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer, ScriptedAnswer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let client: Anthropic;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const thinking = { type: 'enabled', budgetTokens: 2048 } as const;

function adapter(options: Partial<AnthropicAdapterOptions> = {}): AnthropicAdapter {
  return new AnthropicAdapter({ model: 'claude-sonnet-4-6', client, thinking, ...options });
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

const weatherTool: ModelToolDefinition = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather of a city', parameters: getWeather.inputSchema },
};

type Block = Record<string, unknown>;
type Message = { role: string; content: Block[] };
const messagesOf = (index: number): Message[] => server.requests[index]!.body['messages'] as Message[];
const types = (message: Message): unknown[] => message.content.map((block) => block['type']);
const refusals = (): unknown[] => server.requests.map((request) => request.refusal);
const strip = (block: Block): Block => {
  const { cache_control: _cacheControl, ...rest } = block;
  return rest;
};

function toolTurn(thought: string, ...cities: string[]): ScriptedAnswer {
  return {
    type: 'turn',
    content: [
      { type: 'thinking', thinking: thought },
      ...cities.map((city) => ({ type: 'tool_use' as const, name: 'get_weather', input: { city } })),
    ],
  };
}

describe('AnthropicAdapter through ToolOrchestrator, with thinking on every turn', () => {
  for (const stream of [false, true]) {
    it(`replays each thinking block whole, before its tool_use, over a three-turn loop with parallel calls (stream: ${stream})`, async () => {
      server.enqueue(
        toolTurn('Paris and Rome first.', 'Paris', 'Rome'),
        {
          type: 'turn',
          content: [
            { type: 'thinking', thinking: '' },
            { type: 'redacted_thinking' },
            { type: 'text', text: 'Now Oslo.' },
            { type: 'tool_use', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        toolTurn('And Atlantis.', 'Atlantis'),
        {
          type: 'turn',
          content: [
            { type: 'thinking', thinking: 'Done.' },
            { type: 'text', text: 'Sunny.' },
          ],
        },
      );
      const orchestrator = new ToolOrchestrator(
        adapter(),
        { get_weather: getWeather },
        { maxTurns: 6, stream },
      );
      const result = await orchestrator.run([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris, Rome, Oslo, Atlantis?' },
      ]);
      expect(refusals()).toEqual([undefined, undefined, undefined, undefined]);
      expect(result.stopReason).toBe('final');
      expect(result.content).toBe('Sunny.');
      const last = messagesOf(3);
      expect(last.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
      ]);
      expect(last.map(types)).toEqual([
        ['text'],
        ['thinking', 'tool_use', 'tool_use'],
        ['tool_result', 'tool_result'],
        ['thinking', 'redacted_thinking', 'text', 'tool_use'],
        ['tool_result'],
        ['thinking', 'tool_use'],
        ['tool_result'],
      ]);
      // The blocks sent back are those the transcript holds, byte for byte.
      const assistants = result.messages.filter(
        (message): message is AssistantMessage => message.role === 'assistant',
      );
      const held = assistants
        .slice(0, 3)
        .map((message) => message.reasoning!.map((part) => part.providerData!['anthropic.messages']));
      const sent = [1, 3, 5].map((index) =>
        last[index]!.content.filter((block) => String(block['type']).includes('thinking')).map(strip),
      );
      expect(sent).toEqual(held);
      expect(held[1]![0]).toMatchObject({ type: 'thinking', thinking: '' });
      expect(String(held[1]![0]!['signature'])).toMatch(/^Eq/);
      expect(assistants[1]!.reasoning!.map((part) => part.redacted ?? false)).toEqual([false, true]);
      // Parallel results in one user message, in call order; the tool error is flagged.
      const callIds = last[1]!.content
        .filter((block) => block['type'] === 'tool_use')
        .map((block) => block['id']);
      expect(last[2]!.content.map((block) => block['tool_use_id'])).toEqual(callIds);
      expect(last[6]!.content[0]!['is_error']).toBe(true);
      expect(last[2]!.content.some((block) => 'is_error' in block)).toBe(false);
      expect(server.requests[0]!.body['system']).toEqual([
        { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } },
      ]);
      expect(server.requests[0]!.body['thinking']).toEqual({ type: 'enabled', budget_tokens: 2048 });
    });
  }

  it('is refused by the server when a thinking block is dropped, reordered or altered', async () => {
    server.enqueue({
      type: 'turn',
      content: [
        { type: 'thinking', thinking: 'One.' },
        { type: 'redacted_thinking' },
        { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
    const first = await adapter().call([user], [weatherTool]);
    const assistant: AssistantMessage = { role: 'assistant', ...first };
    const reasoning = assistant.reasoning!;
    const result: ChatMessage = { role: 'tool', tool_call_id: first.tool_calls![0]!.id, content: 'sunny' };
    const variants: AssistantMessage[] = [
      { ...assistant, reasoning: reasoning.slice(1) },
      { ...assistant, reasoning: [reasoning[1]!, reasoning[0]!] },
      {
        ...assistant,
        reasoning: [
          {
            ...reasoning[0]!,
            providerData: {
              'anthropic.messages': {
                ...reasoning[0]!.providerData!['anthropic.messages']!,
                thinking: 'Two.',
              },
            },
          },
          reasoning[1]!,
        ],
      },
    ];
    for (const variant of variants) {
      await expect(adapter().call([user, variant, result], [weatherTool])).rejects.toBeInstanceOf(
        InvalidRequestError,
      );
    }
    expect(refusals().slice(1)).toEqual([
      expect.stringContaining('must be passed back unmodified'),
      expect.stringContaining('must be passed back unmodified'),
      expect.stringContaining('Invalid `signature`'),
    ]);
  });

  it('keeps interleaved thinking in place: each thinking block before the tool_use that followed it', async () => {
    server.enqueue(
      {
        type: 'turn',
        content: [
          { type: 'thinking', thinking: 'Paris first.' },
          { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'thinking', thinking: 'Then Rome.' },
          { type: 'tool_use', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        type: 'turn',
        content: [
          { type: 'thinking', thinking: 'Both known.' },
          { type: 'text', text: 'Sunny.' },
        ],
      },
    );
    const result = await new ToolOrchestrator(adapter(), { get_weather: getWeather }).run([user]);
    expect(refusals()).toEqual([undefined, undefined]);
    expect(result.content).toBe('Sunny.');
    expect(messagesOf(1)[1]!.content.map((block) => block['thinking'] ?? block['type'])).toEqual([
      'Paris first.',
      'tool_use',
      'Then Rome.',
      'tool_use',
    ]);
  });

  it('keeps every thinking block intact when the context window masks old tool results', async () => {
    server.enqueue(toolTurn('Paris.', 'Paris'), toolTurn('Rome.', 'Rome'), toolTurn('Oslo.', 'Oslo'), {
      type: 'turn',
      content: [
        { type: 'thinking', thinking: 'Done.' },
        { type: 'text', text: 'Sunny.' },
      ],
    });
    const verbose = defineTool({
      ...getWeather,
      execute: ({ city }) => `${city}: ${'sunny and warm. '.repeat(400)}`,
    });
    const orchestrator = new ToolOrchestrator(
      adapter(),
      { get_weather: verbose },
      {
        contextWindow: { maxTokens: 4000, reserveOutputTokens: 500, keepRecent: 1 },
      },
    );
    const result = await orchestrator.run([user]);
    expect(refusals()).toEqual([undefined, undefined, undefined, undefined]);
    expect(result.content).toBe('Sunny.');
    const last = messagesOf(3);
    const results = last.filter((message) => message.content[0]?.['type'] === 'tool_result');
    // The oldest result was masked; the thinking before each tool_use went as it was issued.
    expect(String(results[0]!.content[0]!['content']).length).toBeLessThan(2000);
    const assistants = result.messages.filter(
      (message): message is AssistantMessage => message.role === 'assistant',
    );
    const sent = [1, 3, 5].map((index) => strip(last[index]!.content[0]!));
    expect(sent).toEqual(
      assistants.slice(0, 3).map((message) => message.reasoning![0]!.providerData!['anthropic.messages']),
    );
  });

  it('sends a forced tool choice as auto with thinking on, and says so on the response', async () => {
    server.enqueue({ type: 'turn', content: [{ type: 'text', text: 'Hi' }] });
    const response = await adapter({ toolChoice: 'required' }).call([user], [weatherTool]);
    expect(refusals()).toEqual([undefined]);
    expect(server.requests[0]!.body['tool_choice']).toEqual({ type: 'auto' });
    expect(response.warnings?.map((warning) => warning.code)).toEqual(['tool_choice_with_thinking']);
  });

  it('the loop emits the forced tool choice sent as auto as a warning event, streaming or not', async () => {
    for (const stream of [false, true]) {
      server.enqueue({ type: 'turn', content: [{ type: 'text', text: 'Hi' }] });
      const orchestrator = new ToolOrchestrator(
        adapter({ toolChoice: 'required' }),
        { get_weather: getWeather },
        { stream },
      );
      const warnings: string[] = [];
      orchestrator.on('warning', (event) => warnings.push(event.data.code));
      const result = await orchestrator.run([user]);
      expect(result.content).toBe('Hi');
      expect(warnings).toEqual(['tool_choice_with_thinking']);
      // The warning is the run's, not the transcript's.
      expect(JSON.stringify(result.messages)).not.toContain('tool_choice_with_thinking');
    }
  });

  it('maps tool choices and parallelToolCalls: false without thinking', async () => {
    for (let index = 0; index < 3; index++)
      server.enqueue({ type: 'turn', content: [{ type: 'text', text: 'Hi' }] });
    const plain = adapter({ thinking: 'disabled', parallelToolCalls: false });
    await plain.call([user], [weatherTool], { toolChoice: 'required' });
    await plain.call([user], [weatherTool], {
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
    });
    await plain.call([user], [weatherTool], { toolChoice: 'none' });
    expect(server.requests.map((request) => request.body['tool_choice'])).toEqual([
      { type: 'any', disable_parallel_tool_use: true },
      { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      { type: 'none' },
    ]);
    expect(server.requests[0]!.body['thinking']).toEqual({ type: 'disabled' });
  });
});

const user: ChatMessage = { role: 'user', content: 'Weather in Paris?' };
