import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import type { AnthropicAdapterOptions } from '../../../src/adapters/anthropic/index.js';
import { costUsd } from '../../../src/orchestrator/budget.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer, ScriptedAnswer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let client: Anthropic;
const turns = 50;
beforeEach(async () => {
  server = await startFakeAnthropicServer({
    script: (_body, index): ScriptedAnswer =>
      index < turns - 1
        ? {
            type: 'turn',
            content: [
              { type: 'thinking', thinking: `Step ${index}.` },
              { type: 'tool_use', name: 'read_page', input: { page: index } },
            ],
          }
        : {
            type: 'turn',
            content: [
              { type: 'thinking', thinking: 'Done.' },
              { type: 'text', text: 'Read them all.' },
            ],
          },
  });
  client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const readPage = defineTool({
  name: 'read_page',
  description: 'Read one page of the manual',
  parameters: z.object({ page: z.number() }),
  execute: ({ page }) => `Page ${page}: ${'lorem ipsum '.repeat(20)}`,
});
const systemPrompt = `You read manuals. ${'Follow the house rules. '.repeat(300)}`;

function run(options: Partial<AnthropicAdapterOptions> = {}): ReturnType<ToolOrchestrator['run']> {
  const adapter = new AnthropicAdapter({
    model: 'claude-sonnet-4-6',
    client,
    thinking: { type: 'enabled', budgetTokens: 2048 },
    ...options,
  });
  return new ToolOrchestrator(adapter, { read_page: readPage }, { maxTurns: turns + 5 }).run([
    { role: 'system', content: systemPrompt },
    { role: 'user', content: 'Read every page.' },
  ]);
}

type Block = Record<string, unknown>;
/** Where each request put its breakpoints: `tools`, `system`, or `messages.N`. */
function breakpoints(index: number): string[] {
  const body = server.requests[index]!.body;
  const found: string[] = [];
  const scan = (blocks: unknown, where: string): void => {
    for (const block of (blocks ?? []) as Block[])
      if (block['cache_control'] !== undefined) found.push(where);
  };
  scan(body['tools'], 'tools');
  scan(body['system'], 'system');
  (body['messages'] as { content: Block[] }[]).forEach((message, position) =>
    scan(message.content, `messages.${position}`),
  );
  return found;
}

describe('AnthropicAdapter prompt caching', () => {
  it(`reads at least 90% of the input tokens from the cache after the first call, over a ${turns}-turn conversation`, async () => {
    const result = await run();
    expect(result.content).toBe('Read them all.');
    expect(server.requests).toHaveLength(turns);
    expect(server.requests.every((request) => request.status === 200)).toBe(true);
    const later = server.requests.slice(1).map((request) => request.usage!);
    const input = later.reduce(
      (total, usage) =>
        total + usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
      0,
    );
    const read = later.reduce((total, usage) => total + usage.cache_read_input_tokens, 0);
    expect(read / input).toBeGreaterThanOrEqual(0.9);
    // The run's usage counts reads and writes in its prompt tokens, and apart.
    const reported = server.requests.map((request) => request.usage!);
    expect(result.usage.cachedPromptTokens).toBe(
      reported.reduce((total, usage) => total + usage.cache_read_input_tokens, 0),
    );
    expect(result.usage.cacheWriteTokens).toBe(
      reported.reduce((total, usage) => total + usage.cache_creation_input_tokens, 0),
    );
    expect(result.usage.promptTokens).toBe(
      reported.reduce(
        (total, usage) =>
          total + usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
        0,
      ),
    );
  });

  it("puts at most 4 breakpoints, in order: the tools, the system prompt, the last request's end and this one's", async () => {
    await run();
    expect(breakpoints(0)).toEqual(['tools', 'system', 'messages.0']);
    expect(breakpoints(1)).toEqual(['tools', 'system', 'messages.0', 'messages.2']);
    expect(breakpoints(2)).toEqual(['tools', 'system', 'messages.2', 'messages.4']);
    expect(server.requests.every((_request, index) => breakpoints(index).length <= 4)).toBe(true);
    expect((server.requests[1]!.body['system'] as Block[])[0]!['cache_control']).toEqual({
      type: 'ephemeral',
    });
  });

  it("takes a ttl of '1h', and sends no breakpoint with cache: false", async () => {
    await run({ cache: { ttl: '1h' } });
    expect((server.requests[0]!.body['tools'] as Block[])[0]!['cache_control']).toEqual({
      type: 'ephemeral',
      ttl: '1h',
    });
    const before = server.requests.length;
    const result = await run({ cache: false });
    expect(
      server.requests.slice(before).every((_request, index) => breakpoints(before + index).length === 0),
    ).toBe(true);
    expect(result.usage.cachedPromptTokens).toBe(0);
  });

  it('is refused by the API past 4 breakpoints', async () => {
    const marked = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    const refused = await client.messages
      .create({
        model: 'claude-sonnet-4-6',
        max_tokens: 100,
        messages: [{ role: 'user', content: [marked, marked, marked, marked, marked] }],
      } as never)
      .catch((thrown: unknown) => thrown);
    expect(refused).toMatchObject({ status: 400 });
    expect(server.requests[0]!.refusal).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
  });

  it('prices cache writes and reads apart from the rest of the prompt', () => {
    const usage = {
      promptTokens: 1_000_000 + 2_000_000 + 4_000_000,
      completionTokens: 0,
      totalTokens: 7_000_000,
      reasoningTokens: 0,
      cachedPromptTokens: 2_000_000,
      cacheWriteTokens: 4_000_000,
    };
    expect(
      costUsd(usage, {
        inputPerMillion: 3,
        outputPerMillion: 15,
        cachedInputPerMillion: 0.3,
        cacheWriteInputPerMillion: 3.75,
      }),
    ).toBeCloseTo(3 + 0.6 + 15);
    // Without a write price, writes cost what input does.
    expect(
      costUsd(usage, { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 }),
    ).toBeCloseTo(3 + 0.6 + 12);
  });
});
