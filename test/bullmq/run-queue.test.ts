import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, InvalidArgumentError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, TraceEvent } from '../../src/index.js';
import type { RunQueue, RunWorker } from '../../src/bullmq.js';
import {
  RedisCheckpointStore,
  RunJobFailedError,
  createRunQueue,
  createRunWorker,
} from '../../src/bullmq.js';
import { useRedisServer } from '../support/redis-fixture.js';
import { expectValidTranscript } from '../support/transcript.js';
import {
  scriptedInput,
  scriptedOrchestrator,
  scriptedModel,
  scriptedTools,
} from './fixtures/scripted-runs.js';
import { z } from 'zod';

const redis = useRedisServer();
let queueCount = 0;
const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
}, 15_000);

/** A queue and a worker on a queue of their own, closed after the test. */
function queueAndWorker(workerOptions: Partial<Parameters<typeof createRunWorker>[0]> = {}): {
  queue: RunQueue;
  worker: RunWorker;
  queueName: string;
} {
  const queueName = `runs-${++queueCount}`;
  const connection = redis.server.connection;
  const queue = createRunQueue({ connection, queueName });
  const worker = createRunWorker({
    connection,
    queueName,
    concurrency: 4,
    orchestrator: () => scriptedOrchestrator(),
    ...workerOptions,
  });
  open.push(worker, queue);
  return { queue, worker, queueName };
}

describe('runs through a BullMQ queue and a worker', () => {
  it('give the same result as run() in process, with checkpoints in Redis', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const events: TraceEvent[] = [];
    const { queue } = queueAndWorker({ onEvent: (event) => events.push(event) });
    const input = scriptedInput({ name: 'same', ms: [5, 10, 15] });
    const runId = await queue.enqueue({ messages: input, systemPrompt: 'Be brief.', runId: 'same-as-run' });
    expect(runId).toBe('same-as-run');
    const queued = await queue.result(runId, { timeoutMs: 15_000 });
    const local = await scriptedOrchestrator().run(input, 'Be brief.', { runId: 'same-as-run' });
    expect(queued).toEqual({ ...JSON.parse(JSON.stringify(local)), traces: [] });
    expect(queued.content).toBe('same: step 1 done | step 2 done | step 3 done');
    expect(queued.turns).toBe(3);
    expectValidTranscript(queued.messages);
    // The worker forwarded the run's events to the sink, and checkpointed it in Redis.
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run_start', 'tool_result', 'run_end']),
    );
    expect(new Set(events.map((event) => event.runId))).toEqual(new Set(['same-as-run']));
    const store = new RedisCheckpointStore({ connection: redis.server.connection });
    const saved = await store.load('same-as-run');
    await store.close();
    expect(saved?.result).toEqual({ content: queued.content });
    expect(saved?.messages).toEqual(queued.messages);
  });

  it('keeps the traces in the result with keepTraces, and gives each run its context and maxTurns', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const seen: unknown[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes the context',
      parameters: z.object({}),
      execute: (_input, toolContext) => {
        seen.push((toolContext as unknown as { tenant?: unknown }).tenant);
        return 'ok';
      },
    });
    const looping = {
      ...scriptedModel,
      call: async () => ({
        content: null,
        tool_calls: [
          { id: `c${seen.length}`, type: 'function' as const, function: { name: 'echo', arguments: '{}' } },
        ],
      }),
    };
    const { queue } = queueAndWorker({
      keepTraces: true,
      orchestrator: () => new ToolOrchestrator(looping, { echo }, { loopGuard: false }),
    });
    const runId = await queue.enqueue({
      messages: [{ role: 'user', content: 'loop' }],
      context: { tenant: 'acme' },
      maxTurns: 2,
    });
    const result = await queue.result(runId, { timeoutMs: 15_000 });
    expect(result.stopReason).toBe('max_turns');
    expect(result.turns).toBe(2);
    expect(seen).toEqual(['acme', 'acme']);
    expect(result.traces.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run_start', 'run_end']),
    );
  });

  it('makes one run of the same runId enqueued twice, and refuses the id with another input', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    let runs = 0;
    const { queue } = queueAndWorker({
      orchestrator: () => {
        runs++;
        return scriptedOrchestrator();
      },
    });
    const input = { messages: scriptedInput({ name: 'twice', ms: [5, 5, 5] }), runId: 'twice' };
    const ids = await Promise.all([queue.enqueue(input), queue.enqueue(input)]);
    expect(ids).toEqual(['twice', 'twice']);
    const first = await queue.result('twice', { timeoutMs: 15_000 });
    // Again once it finished: still the one run, with its result.
    expect(await queue.enqueue(input)).toBe('twice');
    expect(await queue.result('twice', { timeoutMs: 15_000 })).toEqual(first);
    expect(runs).toBe(1);
    await expect(
      queue.enqueue({ messages: scriptedInput({ name: 'other', ms: [5, 5, 5] }), runId: 'twice' }),
    ).rejects.toThrow(/Invalid runId \("twice"\): is already queued with another input/);
  });

  it('cancels a waiting run (removed) and a running one (aborted, transcript valid)', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const queueName = `runs-${++queueCount}`;
    const connection = redis.server.connection;
    const queue = createRunQueue({ connection, queueName });
    open.push(queue);
    // No worker yet: the run waits, and cancel takes it off the queue.
    await queue.enqueue({ messages: scriptedInput({ name: 'waiting', ms: [5, 5, 5] }), runId: 'waiting' });
    expect(await queue.cancel('waiting')).toBe('removed');
    await expect(queue.result('waiting')).rejects.toThrow(/names no run in the queue/);
    expect(await queue.cancel('never-enqueued')).toBe('not_found');

    let started: () => void = () => undefined;
    const toolStarted = new Promise<void>((resolve) => (started = resolve));
    const slowTools = {
      ...scriptedTools(),
      work: defineTool({
        name: 'work',
        description: 'Works for a while',
        parameters: z.object({ step: z.number(), ms: z.number() }),
        execute: async ({ step, ms }, toolContext) => {
          if (step === 2) started();
          await new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, ms);
            toolContext.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(new Error('aborted'));
            });
          });
          return `step ${step} done`;
        },
      }),
    };
    const worker = createRunWorker({
      connection,
      queueName,
      orchestrator: () => new ToolOrchestrator(scriptedModel, slowTools, { loopGuard: false }),
    });
    open.push(worker);
    await queue.enqueue({
      messages: scriptedInput({ name: 'running', ms: [5, 60_000, 5] }),
      runId: 'running',
    });
    await Promise.race([
      toolStarted,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no start')), 10_000)),
    ]);
    expect(await queue.cancel('running')).toBe('aborting');
    const result = await queue.result('running', { timeoutMs: 10_000 });
    expect(result.stopReason).toBe('aborted');
    expectValidTranscript(result.messages);
    expect(await queue.cancel('running')).toBe('finished');
  });

  it('pauses a run for approval, and approve() puts it back on the queue to finish', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const { queue } = queueAndWorker();
    const runId = await queue.enqueue({
      messages: scriptedInput({ name: 'approval', ms: [5, 5], approve: true }),
    });
    const paused = await queue.result(runId, { timeoutMs: 15_000 });
    expect(paused.stopReason).toBe('awaiting_approval');
    expect(paused.pendingApprovals).toEqual([
      { toolCallId: 'call-3', name: 'transfer', arguments: '{"cents":500}' },
    ]);
    await expect(queue.approve(runId, { 'call-9': { approved: true } })).rejects.toThrow(
      /names no call that waits for approval; the calls waiting are: call-3/,
    );
    await queue.approve(runId, { 'call-3': { approved: true } });
    const finished = await queue.result(runId, { timeoutMs: 15_000 });
    expect(finished.stopReason).toBe('final');
    expect(finished.content).toBe('approval: step 1 done | step 2 done | moved 500');
    await expect(queue.approve(runId, { 'call-3': { approved: true } })).rejects.toThrow(
      /names a run that does not wait for approval \(job state: completed, stopReason: final\)/,
    );
    // The same as approving in process.
    const local = scriptedOrchestrator();
    const localPaused = await local.run(scriptInput(), undefined, { runId });
    const localFinished = await local.resume(localPaused.state!, {
      approvals: { 'call-3': { approved: true } },
    });
    expect(finished.messages).toEqual(localFinished.messages);
    function scriptInput(): ChatMessage[] {
      return scriptedInput({ name: 'approval', ms: [5, 5], approve: true });
    }
  });

  it('lets only the first of two concurrent approve() calls on one pause decide, and tells the other', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const { queue } = queueAndWorker();
    const runId = await queue.enqueue({
      messages: scriptedInput({ name: 'race', ms: [5, 5], approve: true }),
    });
    expect((await queue.result(runId, { timeoutMs: 15_000 })).stopReason).toBe('awaiting_approval');
    const decisions = [{ approved: true }, { approved: false, reason: 'not today' }] as const;
    const outcomes = await Promise.allSettled(
      decisions.map((decision) => queue.approve(runId, { 'call-3': decision })),
    );
    const winners = outcomes.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
    expect(winners).toHaveLength(1);
    const loser = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(loser?.reason).toBeInstanceOf(InvalidArgumentError);
    expect(String(loser?.reason)).toMatch(/another approve\(\) call has already taken/);
    // The run finished on the winner's decision, not on a mix or on the loser's.
    const finished = await queue.result(runId, { timeoutMs: 15_000 });
    expect(finished.stopReason).toBe('final');
    const transfer = finished.messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === 'call-3',
    );
    if (winners[0] === 0) expect(transfer?.content).toBe('moved 500');
    else expect(transfer?.content).toMatch(/not today/);
  });

  it('rejects result() of a failed run with RunJobFailedError, and a timeout with AbortedError', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const broken = { ...scriptedModel, call: async () => Promise.reject(new Error('model down')) };
    const { queue } = queueAndWorker({ orchestrator: () => new ToolOrchestrator(broken, scriptedTools()) });
    const runId = await queue.enqueue({ messages: [{ role: 'user', content: 'hi' }] });
    const failure = await queue.result(runId, { timeoutMs: 15_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RunJobFailedError);
    expect(failure).toMatchObject({
      runId,
      failedReason: 'model down',
      attemptsMade: 1,
      code: 'run_job_failed',
    });

    const idle = createRunQueue({ connection: redis.server.connection, queueName: `idle-${++queueCount}` });
    open.push(idle);
    const waiting = await idle.enqueue({ messages: [{ role: 'user', content: 'nobody takes me' }] });
    await expect(idle.result(waiting, { timeoutMs: 300 })).rejects.toThrow(AbortedError);
    await expect(idle.result(waiting, { timeoutMs: 300 })).rejects.toThrow(
      /did not finish within timeoutMs \(300 ms\)/,
    );
  });

  it('names bad input', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const queue = createRunQueue({ connection: redis.server.connection, queueName: `bad-${++queueCount}` });
    open.push(queue);
    await expect(queue.enqueue({ messages: [], runId: 'a:b' })).rejects.toThrow(/Invalid runId \("a:b"\)/);
    await expect(queue.enqueue({ messages: [], runId: '42' })).rejects.toThrow(/not a plain integer/);
    await expect(queue.enqueue({ messages: 'hi' as never })).rejects.toThrow(InvalidArgumentError);
    await expect(queue.enqueue({ messages: [], context: { when: new Date() } as never })).rejects.toThrow(
      /Invalid context.*plain JSON object/,
    );
    await expect(queue.result('x', { timeoutMs: -1 })).rejects.toThrow(/Invalid timeoutMs \(-1\)/);
    expect(() => createRunQueue({} as never)).toThrow(/Invalid connection/);
    expect(() =>
      createRunWorker({ connection: redis.server.connection, orchestrator: 'no' as never }),
    ).toThrow(/Invalid orchestrator/);
    expect(() =>
      createRunWorker({
        connection: redis.server.connection,
        orchestrator: () => scriptedOrchestrator(),
        limiter: { max: 0, duration: 1000 },
      }),
    ).toThrow(/Invalid limiter/);
  });
});

describe('a client of yours', () => {
  let client: Redis;
  beforeAll(() => {
    if (redis.skipReason === undefined)
      client = new Redis({ ...redis.server.connection, maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    client?.disconnect();
  });

  it('is used by queue, worker and store, and left open by close()', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const queueName = `yours-${++queueCount}`;
    const queue = createRunQueue({ connection: client, queueName });
    const worker = createRunWorker({
      connection: client,
      queueName,
      orchestrator: () => scriptedOrchestrator(),
    });
    const runId = await queue.enqueue({ messages: scriptedInput({ name: 'yours', ms: [5, 5, 5] }) });
    expect((await queue.result(runId, { timeoutMs: 15_000 })).stopReason).toBe('final');
    await worker.close();
    await queue.close();
    expect(await client.ping()).toBe('PONG');
  });
});
