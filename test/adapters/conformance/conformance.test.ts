import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitError, ServerError, ToolOrchestrator } from '../../../src/index.js';
import type { AssistantMessage, ChatMessage, ModelAdapter, TraceEvent, Usage } from '../../../src/index.js';
import { ReplayAdapter, recordModel } from '../../../src/replay.js';
import type { ConformanceServer } from './conformance-server.js';
import { lookupAllAtOnce, lookupEach, lookupThen } from './conformance-plan.js';
import type { Plan } from './conformance-plan.js';
import { conformanceTargets } from './conformance-targets.js';
import { runChild, runChildUntilKilled } from './run-conformance-child.js';
import type { ConformanceTarget, TargetConnection } from './conformance-targets.js';
import { lookup } from './conformance-tools.js';

// One list of scenarios, run through ToolOrchestrator for every adapter of conformance-targets.ts,
// each over HTTP with its official client against a local server that speaks its provider's wire
// and answers 400 as the real API does when a rule is broken. With CONFORMANCE_LIVE=1 (npm run
// test:conformance:live) the scenarios marked `live` run against the real APIs instead, for each
// target whose key is set; the others are skipped.

const live = process.env['CONFORMANCE_LIVE'] === '1';

/** What a scenario is given: its target, how to connect, and the fake server (absent when live). */
interface ScenarioContext {
  readonly target: ConformanceTarget;
  readonly server: ConformanceServer | undefined;
  connection(options?: Partial<TargetConnection>): TargetConnection;
  readonly scratch: string;
}

interface Scenario {
  readonly name: string;
  /** Runs against the real API too (it needs no fault the fake server injects). */
  readonly live: boolean;
  readonly plan: Plan;
  run(context: ScenarioContext): Promise<void>;
}

const assistants = (messages: readonly ChatMessage[]): AssistantMessage[] =>
  messages.filter((message): message is AssistantMessage => message.role === 'assistant');

/** Every assistant turn carries what its provider needs back, for providers that return reasoning. */
function expectReasoningOnEveryTurn(target: ConformanceTarget, messages: readonly ChatMessage[]): void {
  if (!target.returnsReasoning) return;
  const turns = assistants(messages);
  expect(turns.map((message) => target.reasoningOf(message) !== undefined)).toEqual(turns.map(() => true));
}

/** The reasoning text a turn shows: DeepSeek's `reasoning_content`, else the text of its reasoning parts. */
function shownReasoning(message: AssistantMessage | undefined): string | undefined {
  return message?.reasoning_content ?? message?.reasoning?.map((part) => part.text ?? '').join('');
}

/** The usage of every answer, summed field by field. */
function summedUsage(usages: readonly Usage[]): Usage {
  const sum = (key: keyof Usage): number => usages.reduce((total, usage) => total + (usage[key] ?? 0), 0);
  return {
    promptTokens: sum('promptTokens'),
    completionTokens: sum('completionTokens'),
    totalTokens: sum('totalTokens'),
    reasoningTokens: sum('reasoningTokens'),
    cachedPromptTokens: sum('cachedPromptTokens'),
    ...(usages.some((usage) => usage.cacheWriteTokens !== undefined)
      ? { cacheWriteTokens: sum('cacheWriteTokens') }
      : {}),
  };
}

/** A run's events without what a clock decides. */
function withoutTiming(events: readonly TraceEvent[]): unknown {
  return JSON.parse(
    JSON.stringify(events, (key, value: unknown) =>
      key === 'timestamp' || key === 'durationMs' || key === 'latencyMs' ? undefined : value,
    ),
  );
}

/** The fake server answered every request without a 400. */
function expectNoRuleBroken(server: ConformanceServer | undefined): void {
  if (server !== undefined) expect(server.rejections).toEqual([]);
}

/** The typed output of the structured-output scenario: its property name shows where it was sent. */
const foundWords = {
  name: 'found_words',
  description: 'The words the lookup tool found',
  schema: {
    type: 'object',
    properties: { found_words: { type: 'array', items: { type: 'string' } } },
    required: ['found_words'],
    additionalProperties: false,
  },
  strict: true,
};

const scenarios: readonly Scenario[] = [
  {
    name: 'typed output: a tool turn, then a JSON answer (native structured output, or the final-answer tool)',
    live: true,
    plan: (turn) =>
      turn === 0
        ? { calls: [{ name: 'lookup', arguments: { word: 'alpha' } }] }
        : { content: '{"found_words":["alpha"]}' },
    async run({ target, server, connection }) {
      const adapter = target.createAdapter(connection());
      for (const stream of [false, true]) {
        // Native structured output where the adapter has it; DeepSeek documents no schema, so the
        // run offers a final-answer tool, and takes the JSON text the model answered with.
        const result = await new ToolOrchestrator(
          adapter,
          { lookup },
          { maxTurns: 4, stream, output: foundWords },
        ).run([
          {
            role: 'user',
            content: 'Look up the word alpha with the lookup tool, then answer with the words you found.',
          },
        ]);
        expect(result.stopReason).toBe('final');
        expectNoRuleBroken(server);
        expect(result.output).toEqual({ found_words: ['alpha'] });
        if (server === undefined) continue;
        // The output's name reaches each request only through the response format (or the final-answer tool).
        for (const body of server.requests.slice(stream ? 2 : 0))
          expect(JSON.stringify(body)).toContain('found_words');
      }
    },
  },
  {
    name: 'a three-turn tool loop keeps the reasoning of every turn',
    live: true,
    plan: lookupEach(['alpha', 'beta', 'gamma']),
    async run({ target, server, connection }) {
      const result = await new ToolOrchestrator(
        target.createAdapter(connection()),
        { lookup },
        { maxTurns: 8 },
      ).run([
        {
          role: 'user',
          content:
            'Look up the words alpha, beta and gamma with the lookup tool, one call per turn in that order, then say you found them.',
        },
      ]);
      expect(result.stopReason).toBe('final');
      expectNoRuleBroken(server);
      const toolTurns = assistants(result.messages).filter(
        (message) => (message.tool_calls?.length ?? 0) > 0,
      );
      expect(toolTurns.length).toBeGreaterThanOrEqual(1);
      if (server === undefined) return;
      expect(toolTurns).toHaveLength(3);
      expect(server.requests).toHaveLength(4);
      expectReasoningOnEveryTurn(target, result.messages);
    },
  },
  {
    name: 'parallel calls are answered in one turn and replayed with what each call carried',
    live: true,
    plan: lookupAllAtOnce(['north', 'south']),
    async run({ target, server, connection }) {
      const result = await new ToolOrchestrator(
        target.createAdapter(connection()),
        { lookup },
        { maxTurns: 6 },
      ).run([
        {
          role: 'user',
          content:
            'Look up the words north and south with the lookup tool, both in the same turn, then answer.',
        },
      ]);
      expect(result.stopReason).toBe('final');
      expectNoRuleBroken(server);
      if (server === undefined) return;
      const first = assistants(result.messages)[0];
      expect(first?.tool_calls?.map((call) => JSON.parse(call.function.arguments) as unknown)).toEqual([
        { word: 'north' },
        { word: 'south' },
      ]);
      expect(result.messages.slice(2, 4).map((message) => message.role)).toEqual(['tool', 'tool']);
      expectReasoningOnEveryTurn(target, result.messages);
    },
  },
  {
    name: 'streaming: deltas in order, tool-call arguments assembled, reasoning deltas',
    live: true,
    plan: (turn) =>
      turn === 0
        ? lookupAllAtOnce(['north', 'south'])(0)
        : { content: 'Both words are in the dictionary: north and south.' },
    async run({ target, server, connection }) {
      const stream = new ToolOrchestrator(
        target.createAdapter(connection()),
        { lookup },
        { maxTurns: 6, stream: true },
      ).stream([
        {
          role: 'user',
          content:
            'Look up the words north and south with the lookup tool, both in the same turn, then answer.',
        },
      ]);
      const events: TraceEvent[] = [];
      for await (const event of stream) events.push(event);
      const result = await stream.result;
      expect(result.stopReason).toBe('final');
      expectNoRuleBroken(server);
      const text = events
        .flatMap((event) => (event.type === 'content_delta' ? [event.data.delta] : []))
        .join('');
      expect(text).toBe(result.content);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
      if (server === undefined) return;
      const argumentsByCall = new Map<number, string>();
      for (const event of events) {
        if (event.type === 'tool_call_delta' && event.turn === 0)
          argumentsByCall.set(
            event.data.index,
            (argumentsByCall.get(event.data.index) ?? '') + event.data.argumentsDelta,
          );
      }
      expect([...argumentsByCall.values()]).toEqual(['{"word":"north"}', '{"word":"south"}']);
      expect(
        new Set(events.filter((event) => event.type === 'content_delta').map((event) => event.data.delta))
          .size,
      ).toBeGreaterThan(1);
      expect(result.usage).toEqual(summedUsage(server.issuedUsage));
      const reasoningDeltas = events.filter((event) => event.type === 'reasoning_delta');
      expect(reasoningDeltas.length > 0).toBe(target.streamsReasoning);
      if (target.streamsReasoning) {
        const streamed = reasoningDeltas
          .filter((event) => event.turn === 0)
          .map((event) => event.data.delta)
          .join('');
        expect(streamed).toBe(shownReasoning(assistants(result.messages)[0]));
      }
      expectReasoningOnEveryTurn(target, result.messages);
    },
  },
  {
    name: 'a pause for approval resumes in a new process from the file store, reasoning intact',
    live: true,
    plan: lookupThen('remove', 'Removed notes.txt.'),
    async run({ target, server, connection, scratch }) {
      const prompt =
        'First look up the word first with the lookup tool; after that, delete the file notes.txt with the remove tool; then confirm.';
      const base = {
        target: target.name,
        connection: connection(),
        directory: scratch,
        runId: 'approval',
        prompt,
      };
      const paused = await runChild({ ...base, mode: 'start' });
      expect(paused.stopReason).toBe('awaiting_approval');
      const approvals = Object.fromEntries(
        paused.pendingApprovals.map((pending) => [pending.toolCallId, { approved: true }]),
      );
      const resumed = await runChild({ ...base, mode: 'resume', approvals });
      expect(resumed.stopReason).toBe('final');
      expectNoRuleBroken(server);
      // The turns saved by the first process come back from the store exactly as they were.
      expect(assistants(resumed.messages).slice(0, assistants(paused.messages).length)).toEqual(
        assistants(paused.messages),
      );
      if (server === undefined) return;
      expect(server.requests).toHaveLength(3);
      expectReasoningOnEveryTurn(target, resumed.messages);
    },
  },
  {
    name: 'a run killed (SIGKILL) mid-run resumes in a new process, reasoning intact',
    live: false,
    plan: lookupThen('hang', 'Ran on notes.txt.'),
    async run({ target, server, connection, scratch }) {
      const base = {
        target: target.name,
        connection: connection(),
        directory: scratch,
        runId: 'crash',
        prompt: 'Look up a word, then run the long task on notes.txt.',
      };
      const killed = await runChildUntilKilled({ ...base, mode: 'start' }, 'HANG');
      expect(killed).toBe('SIGKILL');
      const resumed = await runChild({ ...base, mode: 'resume' });
      expect(resumed.stopReason).toBe('final');
      expect(resumed.content).toBe('Ran on notes.txt.');
      expectNoRuleBroken(server);
      // The two tool turns were answered before the kill; the resume asks only for the last turn.
      expect(server?.requests).toHaveLength(3);
      expectReasoningOnEveryTurn(target, resumed.messages);
    },
  },
  {
    name: 'the context window reduces a long run without breaking a reasoning span',
    live: false,
    plan: lookupEach(Array.from({ length: 12 }, (_, index) => `word${index}`)),
    async run({ target, server, connection }) {
      const result = await new ToolOrchestrator(
        target.createAdapter(connection()),
        { lookup },
        { maxTurns: 20, contextWindow: { maxTokens: 4000, reserveOutputTokens: 500, keepRecent: 2 } },
      ).run([{ role: 'user', content: 'Look up twelve words.' }]);
      expect(result.stopReason).toBe('final');
      expectNoRuleBroken(server);
      expect(result.traces.filter((event) => event.type === 'context_compacted').length).toBeGreaterThan(0);
      // Some results went out reduced; the transcript keeps them whole, and every turn went back
      // whole (the server checked each against what it returned).
      const sent = server?.sentTranscript(-1);
      const reduced = result.messages.filter(
        (message) =>
          message.role === 'tool' && sent?.toolResults.get(message.tool_call_id) !== message.content,
      );
      expect(reduced.length).toBeGreaterThan(0);
      expect(sent?.assistantTurns).toBe(12);
      expectReasoningOnEveryTurn(target, result.messages);
    },
  },
  {
    name: '429 and 5xx are retried, and typed when retries run out',
    live: false,
    plan: lookupEach(['one']),
    async run({ target, server, connection }) {
      server?.failNext(
        { status: 429, headers: { 'retry-after-ms': '5' } },
        { status: 503, message: 'Server overloaded' },
      );
      const retrying = new ToolOrchestrator(
        target.createAdapter(connection({ maxRetries: 2, retryBaseDelayMs: 5 })),
        { lookup },
      );
      const result = await retrying.run([{ role: 'user', content: 'Look up one.' }]);
      expect(result.stopReason).toBe('final');
      expect(server?.requests).toHaveLength(4);
      expectNoRuleBroken(server);
      const once = new ToolOrchestrator(target.createAdapter(connection({ maxRetries: 0 })), { lookup });
      server?.failNext({ status: 429, headers: { 'retry-after-ms': '5' } });
      await expect(once.run([{ role: 'user', content: 'Look up one.' }])).rejects.toBeInstanceOf(
        RateLimitError,
      );
      server?.failNext({ status: 500 });
      await expect(once.run([{ role: 'user', content: 'Look up one.' }])).rejects.toBeInstanceOf(ServerError);
    },
  },
  {
    name: 'record and replay: a recorded run (a retried 503 inside it) replays the same without the server, streaming and not; a failure replays as its class',
    live: false,
    plan: lookupEach(['one', 'two']),
    async run({ target, server, connection, scratch }) {
      const question: ChatMessage[] = [{ role: 'user', content: 'Look up one, then two.' }];
      const orchestrator = (adapter: ModelAdapter, stream: boolean): ToolOrchestrator => {
        let id = 0;
        return new ToolOrchestrator(adapter, { lookup }, { stream, generateId: () => `id-${id++}` });
      };
      for (const stream of [false, true]) {
        const path = join(scratch, `${target.name}-${String(stream)}.jsonl`);
        server?.failNext({ status: 503, message: 'Server overloaded' });
        const recorder = recordModel(
          target.createAdapter(connection({ maxRetries: 1, retryBaseDelayMs: 5 })),
          {
            path,
          },
        );
        const recorded = await orchestrator(recorder, stream).run(question);
        expect(recorded.stopReason).toBe('final');
        expectNoRuleBroken(server);
        const requestsBefore = server?.requests.length;
        const replayed = await orchestrator(new ReplayAdapter({ path }), stream).run(question);
        expect(server?.requests.length).toBe(requestsBefore);
        expect(replayed.content).toBe(recorded.content);
        expect(replayed.messages).toEqual(recorded.messages);
        expect(replayed.usage).toEqual(recorded.usage);
        expect(withoutTiming(replayed.traces)).toEqual(withoutTiming(recorded.traces));
        expect(replayed.traces.some((event) => event.type === 'content_delta')).toBe(stream);
      }
      const path = join(scratch, `${target.name}-failure.jsonl`);
      server?.failNext({ status: 500 });
      const failed = await orchestrator(
        recordModel(target.createAdapter(connection({ maxRetries: 0 })), { path }),
        false,
      )
        .run(question)
        .catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(ServerError);
      const replayedFailure = await orchestrator(new ReplayAdapter({ path }), false)
        .run(question)
        .catch((error: unknown) => error);
      expect(replayedFailure).toBeInstanceOf(ServerError);
      expect(replayedFailure).toMatchObject({
        message: (failed as ServerError).message,
        status: (failed as ServerError).status,
        provider: (failed as ServerError).provider,
      });
    },
  },
  {
    name: 'an abort mid-stream ends the run and closes the connection',
    live: false,
    plan: () => ({ content: 'A long answer that stalls after its first words.', stall: true }),
    async run({ target, server, connection }) {
      const stream = new ToolOrchestrator(
        target.createAdapter(connection()),
        { lookup },
        { stream: true },
      ).stream([{ role: 'user', content: 'Tell me a long story.' }]);
      const texts: string[] = [];
      for await (const text of stream.textStream) {
        texts.push(text);
        stream.abort();
      }
      const result = await stream.result;
      expect(result.stopReason).toBe('aborted');
      // One piece arrived (its length is the wire's: six characters on Chat Completions, eight on Responses).
      expect(texts).toHaveLength(1);
      expect('A long answer that stalls after its first words.'.startsWith(texts[0] ?? '-')).toBe(true);
      await server?.stalledStreamClosed();
    },
  },
  {
    name: 'usage is summed over the run, with cached and reasoning tokens',
    live: true,
    plan: lookupEach(['one', 'two']),
    async run({ target, server, connection }) {
      const result = await new ToolOrchestrator(
        target.createAdapter(connection()),
        { lookup },
        { maxTurns: 6 },
      ).run([{ role: 'user', content: 'Look up the words one and two with the lookup tool, then answer.' }]);
      expect(result.stopReason).toBe('final');
      expect(result.usage.promptTokens).toBeGreaterThan(0);
      expect(result.usage.cachedPromptTokens).toBeLessThanOrEqual(result.usage.promptTokens);
      expect(result.usage.reasoningTokens).toBeLessThanOrEqual(result.usage.completionTokens);
      if (server === undefined) return;
      expect(result.usage).toEqual(summedUsage(server.issuedUsage));
    },
  },
];

for (const target of conformanceTargets) {
  const key = target.live === undefined ? undefined : process.env[target.live.keyVariable];
  const runnable = !live || key !== undefined;
  describe.skipIf(!runnable)(`conformance: ${target.name}${live ? ' (live)' : ''}`, () => {
    let scratch: string;
    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), `conformance-${target.name}-`));
    });
    afterAll(() => rm(scratch, { recursive: true, force: true }));

    for (const scenario of scenarios) {
      it.skipIf(live && !scenario.live)(scenario.name, { timeout: live ? 300_000 : 60_000 }, async () => {
        const server = live ? undefined : await target.startServer(scenario.plan);
        const directory = await mkdtemp(join(scratch, 'run-'));
        try {
          await scenario.run({
            target,
            server,
            scratch: directory,
            connection: (options = {}) => ({
              apiKey: live ? (key ?? '') : 'conformance',
              model: live ? (target.live?.model ?? '') : 'conformance-model',
              ...(server === undefined ? {} : { baseURL: server.baseURL, retryBaseDelayMs: 5 }),
              ...options,
            }),
          });
        } finally {
          await server?.close();
        }
      });
    }
  });
}
