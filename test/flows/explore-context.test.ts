import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import { exploreContext } from '../../src/flows/context/explore-context.js';
import { createContextProviders } from '../../src/flows/context/create-context-providers.js';
import { defineContextProvider } from '../../src/flows/context/context-provider.js';
import { generateWithContext } from '../../src/flows/context/generate-with-context.js';
import { StructuredOutputError } from '../../src/errors/structured-output-error.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';

const root = fileURLToPath(new URL('../../node_modules/axios', import.meta.url));
const providers = createContextProviders({ root });
const requests = (...list: { provider: string; params?: Record<string, unknown>; reason?: string }[]) =>
  ScriptedAdapter.text(
    JSON.stringify({ requests: list.map((request) => ({ reason: 'needed', params: {}, ...request })) }),
  );

describe('exploreContext over axios', () => {
  it('requests, fulfils and accumulates until the model is ready; errors are results; repeats are skipped', async () => {
    const adapter = new ScriptedAdapter([
      requests(
        { provider: 'read_file', params: { path: 'lib/axios.js', end_line: 30 } },
        { provider: 'no_such_provider' },
        { provider: 'symbol_list', params: { file: 'lib/axios.js' } },
      ),
      requests(
        { provider: 'read_file', params: { end_line: 30, path: 'lib/axios.js' } },
        { provider: 'symbol_list', params: { file_path: 'lib/core/Axios.js' } },
      ),
      requests(),
    ]);
    const result = await exploreContext({
      adapter,
      providers,
      initialContext: 'Document the Axios class.',
      maxRounds: 10,
    });

    expect(result.rounds).toBe(3);
    expect(result.ready).toBe(true);
    expect(result.requests).toHaveLength(5);
    expect(result.results.map((entry) => [entry.provider, entry.ok])).toEqual([
      ['read_file', true],
      ['no_such_provider', false],
      ['symbol_list', false],
      ['symbol_list', true],
    ]);
    const [, unknown, badParams, symbols] = result.results;
    expect(unknown).toMatchObject({
      error: expect.stringContaining('Unknown provider "no_such_provider". Available providers: read_file'),
    });
    expect(badParams).toMatchObject({
      error: expect.stringMatching(/Invalid params for "symbol_list": file_path/),
    });
    expect(symbols).toMatchObject({ content: expect.stringMatching(/class Axios/) });
    expect(result.context.startsWith('Document the Axios class.')).toBe(true);
    expect(result.context).toContain('File: lib/axios.js');
    // The model sees the menu, and later rounds see the accumulated context.
    const firstSystem = adapter.calls[0]!.messages[0]!.content ?? '';
    for (const name of [
      'read_file',
      'search_code',
      'symbol_list',
      'import_graph',
      'git_log',
      'git_diff',
      'repo_map',
      'discover_context',
    ]) {
      expect(firstSystem).toContain(`- ${name}: `);
    }
    expect(firstSystem).not.toContain('- run_tests: ');
    expect(adapter.calls[1]!.messages[1]!.content).toContain('File: lib/axios.js');
    expect(adapter.calls[2]!.messages[1]!.content).toContain('class Axios');
  });

  it('maxRounds 0 disables exploration: no model call, the initial context comes back', async () => {
    const adapter = new ScriptedAdapter([]);
    const result = await exploreContext({ adapter, providers, initialContext: 'ctx', maxRounds: 0 });
    expect(result).toEqual({ context: 'ctx', rounds: 0, requests: [], results: [], ready: true });
    expect(adapter.calls).toHaveLength(0);
  });

  it('stops at maxRounds when the model keeps asking', async () => {
    const adapter = new ScriptedAdapter([
      requests({ provider: 'read_file', params: { path: 'package.json', end_line: 3 } }),
      requests({ provider: 'read_file', params: { path: 'index.js', end_line: 3 } }),
    ]);
    const result = await exploreContext({ adapter, providers, maxRounds: 2 });
    expect(result.rounds).toBe(2);
    expect(result.ready).toBe(false);
    expect(result.results.every((entry) => entry.ok)).toBe(true);
  });

  it('keeps the context within its budget and marks the cut result truncated', async () => {
    const adapter = new ScriptedAdapter([
      requests(
        { provider: 'read_file', params: { path: 'lib/core/Axios.js' } },
        { provider: 'read_file', params: { path: 'lib/axios.js' } },
      ),
      requests(),
    ]);
    const result = await exploreContext({
      adapter,
      providers,
      initialContext: 'task',
      maxContextChars: 2_000,
    });
    expect(result.context.length).toBeLessThanOrEqual(2_000);
    expect(result.context).toContain('[truncated: the context budget is spent]');
    expect(result.results.map((entry) => entry.truncated)).toEqual([true, true]);
  });

  it('includeDeps puts the targets, their imports and importers in up front', async () => {
    const adapter = new ScriptedAdapter([requests()]);
    const result = await exploreContext({
      adapter,
      providers,
      includeDeps: true,
      targetFiles: ['lib/core/Axios.js'],
      maxRounds: 1,
    });
    expect(result.results).toHaveLength(1);
    expect(result.results[0]).toMatchObject({ provider: 'discover_context', ok: true });
    expect(result.context).toContain('--- target: lib/core/Axios.js');
    expect(result.context).toContain('--- dependency of lib/core/Axios.js: lib/utils.js');
    expect(result.context).toMatch(
      /lib\/core\/Axios.js\n {2}imports: .*lib\/utils.js.*\n {2}imported by: .*lib\/axios.js:\d+/,
    );
    // The model saw it in its first round.
    expect(adapter.calls[0]!.messages[1]!.content).toContain('--- target: lib/core/Axios.js');
  });

  it('repairs an invalid ExplorationResponse once, and fails clearly without repair', async () => {
    const adapter = new ScriptedAdapter(
      [ScriptedAdapter.text('{"requests": [{"provider": 1}]}'), requests()],
      {
        supportsResponseFormat: true,
      },
    );
    const result = await exploreContext({ adapter, providers, maxRounds: 3 });
    expect(result).toMatchObject({ rounds: 1, ready: true });
    expect(adapter.calls[0]!.options.responseFormat).toMatchObject({ name: 'ExplorationResponse' });
    expect(adapter.calls[1]!.messages.at(-1)!.content).toContain('does not match the required JSON schema');
    expect(adapter.calls[1]!.messages.at(-1)!.content).toContain('requests.0.provider');

    const strict = new ScriptedAdapter([ScriptedAdapter.text('not json'), requests()]);
    await expect(exploreContext({ adapter: strict, providers, repair: false })).rejects.toBeInstanceOf(
      StructuredOutputError,
    );
    expect(strict.calls).toHaveLength(1);
  });

  it('without native structured output, offers the ExplorationResponse tool and takes its arguments', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['ExplorationResponse', { requests: [] }]]),
    ]);
    const result = await exploreContext({ adapter, providers, maxRounds: 3 });
    expect(result).toMatchObject({ rounds: 1, ready: true });
    expect(adapter.calls[0]!.tools.map((tool) => tool.function.name)).toEqual(['ExplorationResponse']);
  });

  it('runs custom providers next to the built-ins, and generateWithContext sends the context', async () => {
    const ticket = defineContextProvider({
      name: 'ticket',
      description: 'A ticket by id.',
      parameters: z.object({ id: z.string() }),
      fulfill: ({ id }) => `Ticket ${id}: add retries`,
    });
    const adapter = new ScriptedAdapter([
      requests({ provider: 'ticket', params: { id: 'T-1' } }),
      requests(),
      ScriptedAdapter.text('Plan: ...'),
    ]);
    const explored = await exploreContext({
      adapter,
      providers: { ...providers, ticket },
      task: 'Plan the ticket',
    });
    expect(explored.context).toContain('Ticket T-1: add retries');
    const answer = await generateWithContext({ adapter, task: 'Plan the ticket', context: explored.context });
    expect(answer.content).toBe('Plan: ...');
    expect(adapter.calls[2]!.messages[1]!.content).toContain('Ticket T-1: add retries');
    expect(adapter.calls[2]!.tools).toEqual([]);
  });
});

describe('a provider that throws', () => {
  it('becomes a failed result naming the provider, whatever it threw', async () => {
    const hostile = Object.create(null) as object; // String() of it throws a TypeError.
    const thrown: unknown[] = [new Error('ticket service down'), 'plain string', hostile, { status: 503 }];
    const tickets = thrown.map((value, index) =>
      defineContextProvider({
        name: `ticket_${index}`,
        description: 'A ticket by id.',
        parameters: z.object({}),
        fulfill: () => {
          throw value;
        },
      }),
    );
    const adapter = new ScriptedAdapter([
      requests(...tickets.map((ticket) => ({ provider: ticket.name }))),
      requests(),
    ]);
    const explored = await exploreContext({
      adapter,
      providers: Object.fromEntries(tickets.map((ticket) => [ticket.name, ticket])),
      task: 'Plan the ticket',
    });
    const shown = adapter.calls[1]!.messages[1]!.content;
    expect(explored.ready).toBe(true);
    expect(shown).toContain('Provider "ticket_0" failed: ticket service down');
    expect(shown).toContain('Provider "ticket_1" failed: plain string');
    expect(shown).toMatch(/Provider "ticket_2" failed: \S/);
    expect(shown).toContain('Provider "ticket_3" failed: {"status":503}');
  });
});

describe('callExplorationLlm as a serialisable activity', () => {
  it('takes plain JSON input, shows the round and the menu, and returns plain JSON', async () => {
    const { callExplorationLlm } = await import('../../src/flows/context/call-exploration-llm.js');
    const adapter = new ScriptedAdapter([requests({ provider: 'repo_map' })]);
    const input = {
      task: 'Explain axios',
      context: '',
      providers: [{ name: 'repo_map', description: 'A map.', parameters: { type: 'object' } }],
      round: 2,
      maxRounds: 4,
    };
    const output = await callExplorationLlm(JSON.parse(JSON.stringify(input)), { adapter });
    expect(JSON.parse(JSON.stringify(output))).toEqual(output);
    expect(output.response.requests).toEqual([{ provider: 'repo_map', params: {}, reason: 'needed' }]);
    expect(adapter.calls[0]!.messages[0]!.content).toContain('This is round 2 of at most 4.');
    expect(adapter.calls[0]!.messages[0]!.content).toContain('- repo_map: A map.');
    expect(adapter.calls[0]!.messages[1]!.content).toContain('(none yet)');
  });

  it('reports the usage of every call, the first one included, when a repair call was made', async () => {
    const { callExplorationLlm } = await import('../../src/flows/context/call-exploration-llm.js');
    const usage = (prompt: number, completion: number) => ({
      promptTokens: prompt,
      completionTokens: completion,
      totalTokens: prompt + completion,
      reasoningTokens: 1,
      cachedPromptTokens: 10,
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.text('oops', { usage: usage(1_000, 50) }),
      ScriptedAdapter.text('{"requests": []}', { usage: usage(1_200, 20) }),
    ]);
    const input = { task: 't', context: '', providers: [], round: 1, maxRounds: 1 };
    const events: TraceEvent[] = [];
    const output = await callExplorationLlm(input, {
      adapter,
      traceEmitter: (event) => void events.push(event),
      parentRunId: 'workflow-run',
    });
    expect(adapter.calls).toHaveLength(2);
    expect(output.repaired).toBe(true);
    expect(events.filter((event) => event.type === 'llm_call')).toHaveLength(2);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['run_start', 'run_end']));
    expect(events.every((event) => event.parentRunId === 'workflow-run')).toBe(true);
    expect(output.usage).toEqual({
      promptTokens: 2_200,
      completionTokens: 70,
      totalTokens: 2_270,
      reasoningTokens: 2,
      cachedPromptTokens: 20,
    });
  });
});
