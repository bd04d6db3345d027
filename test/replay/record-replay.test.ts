import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RateLimitError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, ModelAdapter, RunResult, TraceEvent, Usage } from '../../src/index.js';
import {
  ReplayAdapter,
  ReplayMismatchError,
  matchByRequest,
  parseCassette,
  recordModel,
} from '../../src/replay.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'replay-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const usage = (total: number): Usage => ({
  promptTokens: total - 2,
  completionTokens: 2,
  totalTokens: total,
  reasoningTokens: 0,
  cachedPromptTokens: 0,
});
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a word`,
});
const question: ChatMessage[] = [{ role: 'user', content: 'Look up alpha and beta.' }];

/** A model that looks two words up in one turn, then one more, then answers. */
function scripted(): ScriptedAdapter {
  return new ScriptedAdapter([
    ScriptedAdapter.toolCalls(
      [
        ['lookup', { word: 'alpha' }, 'call_a'],
        ['lookup', { word: 'beta' }, 'call_b'],
      ],
      { usage: usage(40) },
    ),
    ScriptedAdapter.toolCalls([['lookup', { word: 'gamma' }, 'call_c']], { usage: usage(60) }),
    ScriptedAdapter.text('Alpha, beta and gamma are words.', { usage: usage(80) }),
  ]);
}

/** An orchestrator with a deterministic clock and ids, so two runs can be compared event by event. */
function orchestratorOf(adapter: ModelAdapter, stream: boolean): ToolOrchestrator {
  let id = 0;
  let clock = 0;
  return new ToolOrchestrator(
    adapter,
    { lookup },
    { generateId: () => `id-${id++}`, now: () => (clock += 5), stream },
  );
}

/** A run's events without what a clock decides. */
const comparable = (events: readonly TraceEvent[]): unknown =>
  JSON.parse(
    JSON.stringify(events, (key, value: unknown) =>
      key === 'timestamp' || key === 'durationMs' || key === 'latencyMs' ? undefined : value,
    ),
  );

function expectSameRun(replayed: RunResult, recorded: RunResult): void {
  expect(replayed.content).toBe(recorded.content);
  expect(replayed.messages).toEqual(recorded.messages);
  expect(replayed.stopReason).toBe(recorded.stopReason);
  expect(replayed.turns).toBe(recorded.turns);
  expect(replayed.usage).toEqual(recorded.usage);
  expect(comparable(replayed.traces)).toEqual(comparable(recorded.traces));
}

describe('recordModel and ReplayAdapter', () => {
  for (const stream of [false, true]) {
    it(`a run replayed from its own recording gives the same result, transcript and events (${stream ? 'streaming' : 'call'})`, async () => {
      const path = join(scratch, `same-${stream}.jsonl`);
      const recorded = await orchestratorOf(recordModel(scripted(), { path }), stream).run(question);
      const replay = new ReplayAdapter({ path });
      const replayed = await orchestratorOf(replay, stream).run(question);
      expectSameRun(replayed, recorded);
      expect(replay.callsReplayed).toBe(3);
      expect(replayed.traces.some((event) => event.type === 'content_delta')).toBe(stream);
    });
  }

  it('writes readable JSONL: a header, then one line a call sharing the previous messages and tools', async () => {
    const path = join(scratch, 'small.jsonl');
    await orchestratorOf(recordModel(scripted(), { path }), false).run(question);
    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: 'cassette', version: 1, adapter: { provider: 'scripted' } });
    expect(lines.slice(1).map((line) => line.request.messagesOffset ?? 0)).toEqual([0, 1, 4]);
    expect(lines.slice(1).map((line) => line.request.toolsAsBefore ?? false)).toEqual([false, true, true]);
    expect(lines[3].request.messages.map((message: ChatMessage) => message.role)).toEqual([
      'assistant',
      'tool',
    ]);
    expect(lines[3].response.content).toBe('Alpha, beta and gamma are words.');
    const cassette = parseCassette(await readFile(path, 'utf8'));
    expect(cassette.calls[2]!.request.messages).toHaveLength(6);
  });

  it('strict: a request that differs from the recording throws ReplayMismatchError naming the first difference', async () => {
    const path = join(scratch, 'strict.jsonl');
    await orchestratorOf(recordModel(scripted(), { path }), false).run(question);
    const changed: ChatMessage[] = [{ role: 'user', content: 'Look up delta.' }];
    const error = await orchestratorOf(new ReplayAdapter({ path }), false)
      .run(changed)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ReplayMismatchError);
    expect(error).toMatchObject({
      reason: 'different_request',
      callIndex: 0,
      path: 'messages[0].content',
      recorded: 'Look up alpha and beta.',
      received: 'Look up delta.',
    });
    expect((error as Error).message).toMatch(/call 1 of the replay .* differs .* at messages\[0\]\.content/);
  });

  it('sequence answers calls in order whatever they send, and says so when the cassette runs out', async () => {
    const path = join(scratch, 'sequence.jsonl');
    await orchestratorOf(recordModel(scripted(), { path }), false).run(question);
    const replay = new ReplayAdapter({ path, match: 'sequence' });
    const result = await orchestratorOf(replay, false).run([{ role: 'user', content: 'Anything.' }]);
    expect(result.content).toBe('Alpha, beta and gamma are words.');
    await expect(replay.call([{ role: 'user', content: 'more' }], [])).rejects.toMatchObject({
      name: 'ReplayMismatchError',
      reason: 'no_recording',
      callIndex: 3,
    });
  });

  it('a custom matcher picks the recording', async () => {
    const path = join(scratch, 'custom.jsonl');
    await orchestratorOf(recordModel(scripted(), { path }), false).run(question);
    const replay = new ReplayAdapter({
      path,
      match: (request, { calls }) =>
        calls.find((call) => call.request.messages.length === request.messages.length),
    });
    const response = await replay.call(
      parseCassette(await readFile(path, 'utf8')).calls[2]!.request.messages,
      [],
    );
    expect(response.content).toBe('Alpha, beta and gamma are words.');
  });

  it('matchByRequest answers each call with the recording of an equal request, in any order, each once', async () => {
    const path = join(scratch, 'by-request.jsonl');
    const recorder = recordModel(
      new ScriptedAdapter([ScriptedAdapter.text('about A'), ScriptedAdapter.text('about B')]),
      { path },
    );
    const ask = (text: string): ChatMessage[] => [{ role: 'user', content: text }];
    await recorder.call(ask('A?'), []);
    await recorder.call(ask('B?'), []);
    const replay = new ReplayAdapter({ path, match: matchByRequest });
    expect((await replay.call(ask('B?'), [])).content).toBe('about B');
    expect((await replay.call(ask('A?'), [])).content).toBe('about A');
    await expect(replay.call(ask('A?'), [])).rejects.toMatchObject({ reason: 'no_recording' });
  });

  it('a failed call is recorded and replays as the same error class with its fields', async () => {
    const path = join(scratch, 'error.jsonl');
    const failing: ModelAdapter = {
      provider: 'example',
      call: async () => {
        throw new RateLimitError({
          message: 'Slow down',
          provider: 'example',
          status: 429,
          retryAfterMs: 1500,
        });
      },
    };
    await expect(orchestratorOf(recordModel(failing, { path }), false).run(question)).rejects.toBeInstanceOf(
      RateLimitError,
    );
    const replayed = await orchestratorOf(new ReplayAdapter({ path }), false)
      .run(question)
      .catch((thrown: unknown) => thrown);
    expect(replayed).toBeInstanceOf(RateLimitError);
    expect(replayed).toMatchObject({
      message: 'Slow down',
      status: 429,
      retryAfterMs: 1500,
      retryable: true,
    });
  });

  it('removes keys from the environment, bearer tokens and credential fields wherever they appear', async () => {
    const path = join(scratch, 'redacted.jsonl');
    const key = 'sk-planted-0123456789abcdefghij';
    const other = 'tok_9f8e7d6c5b4a3f2e1d';
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.text(`I saw ${key} and Bearer ${other}.`, {
        providerData: { example: { apiKey: 'k-1' } },
      }),
    ]);
    const keyTool = defineTool({
      name: 'use_key',
      description: `Calls the API with ${other}`,
      parameters: z.object({}),
      execute: () => 'ok',
    });
    const orchestrator = new ToolOrchestrator(
      recordModel(adapter, {
        path,
        environment: { EXAMPLE_API_KEY: other },
        redact: { values: [/planted/] },
      }),
      { use_key: keyTool },
    );
    await orchestrator.run([{ role: 'user', content: `my key is ${key}, my token ${other}` }]);
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain(other);
    expect(text).not.toContain('k-1');
    expect(text).toContain('[REDACTED]');
  });

  it('appends to an existing cassette, numbering the new calls after the old', async () => {
    const path = join(scratch, 'append.jsonl');
    await orchestratorOf(recordModel(scripted(), { path }), false).run(question);
    await orchestratorOf(recordModel(scripted(), { path }), false).run(question);
    const cassette = parseCassette(await readFile(path, 'utf8'));
    expect(cassette.calls.map((call) => call.index)).toEqual([0, 1, 2, 3, 4, 5]);
    const replay = new ReplayAdapter({ path });
    await orchestratorOf(replay, false).run(question);
    const again = await orchestratorOf(replay, false).run(question);
    expect(again.content).toBe('Alpha, beta and gamma are words.');
  });

  it('refuses a file that is not a cassette, naming the line', async () => {
    const path = join(scratch, 'not-a-cassette.jsonl');
    await writeFile(path, '{"type":"cassette","version":1,"recordedAt":"x","adapter":{}}\nnot json\n');
    expect(() => new ReplayAdapter({ path })).toThrow(/line 2 .*is not JSON/);
    expect(() => new ReplayAdapter({ path: join(scratch, 'missing.jsonl') })).toThrow(
      /record the cassette first/,
    );
  });

  it('replays at the recorded speed when asked', async () => {
    const path = join(scratch, 'speed.jsonl');
    let clock = 0;
    const slow = recordModel(new ScriptedAdapter([ScriptedAdapter.text('late')]), {
      path,
      now: () => (clock += 120),
    });
    await slow.call(question, []);
    const started = performance.now();
    await new ReplayAdapter({ path, speed: 'recorded' }).call(question, []);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });
});
