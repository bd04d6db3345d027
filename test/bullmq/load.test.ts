import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunQueue } from '../../src/bullmq.js';
import { createRunQueue } from '../../src/bullmq.js';
import type { RunResult } from '../../src/index.js';
import { useRedisServer } from '../support/redis-fixture.js';
import { until } from '../support/until.js';
import { scriptedInput, scriptedOrchestrator } from './fixtures/scripted-runs.js';
import type { LogLine, WorkerProcess } from './fixtures/worker-processes.js';
import { readToolLog, startWorkerProcess } from './fixtures/worker-processes.js';

// 1,000 scripted runs (3 model turns and 3 tool calls each, tools sleeping 5-20 ms) across 4
// worker processes: none lost, none completed twice, every result the one run() gives in process.
const runCount = 1_000;
const workerCount = 4;
const concurrency = 25;
const redis = useRedisServer();
let scratch: string;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'bullmq-load-'));
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  await rm(scratch, { recursive: true, force: true });
}, 30_000);

/** The input of run `index`: tools sleeping 5-20 ms, a different mix for each run. */
const inputOf = (index: number) =>
  scriptedInput({
    name: `run-${index}`,
    ms: [5 + (index % 16), 5 + ((index * 7) % 16), 5 + ((index * 13) % 16)],
  });

/** What run() gives in process for every run, to compare with. */
async function expectedResults(prefix: string): Promise<Map<string, RunResult>> {
  const orchestrator = scriptedOrchestrator();
  const results = await Promise.all(
    Array.from({ length: runCount }, (_, index) =>
      orchestrator.run(inputOf(index), undefined, { runId: `${prefix}-${index}` }),
    ),
  );
  return new Map(results.map((result) => [result.runId, result]));
}

/** Counts BullMQ `completed` events by run, from before the first run is enqueued. */
async function countCompletions(
  queueName: string,
): Promise<{ counts: Map<string, number>; close: () => Promise<void> }> {
  const events = new QueueEvents(queueName, { connection: redis.server.connection });
  await events.waitUntilReady();
  const counts = new Map<string, number>();
  events.on('completed', ({ jobId }) => counts.set(jobId, (counts.get(jobId) ?? 0) + 1));
  return { counts, close: () => events.close() };
}

async function enqueueAll(queue: RunQueue, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < runCount; start += 100) {
    ids.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, runCount - start) }, (_, offset) =>
          queue.enqueue({ messages: inputOf(start + offset), runId: `${prefix}-${start + offset}` }),
        ),
      )),
    );
  }
  return ids;
}

/** Checks every run: finished once, with the in-process result. */
async function expectAllFinishedOnce(
  queue: RunQueue,
  ids: readonly string[],
  expected: Map<string, RunResult>,
  completions: Map<string, number>,
): Promise<void> {
  const results = await Promise.all(ids.map((runId) => queue.result(runId, { timeoutMs: 120_000 })));
  const lost = ids.filter((_, index) => results[index]?.stopReason !== 'final');
  expect(lost, 'runs that did not end final').toEqual([]);
  for (const result of results) {
    const local = expected.get(result.runId)!;
    expect({
      content: result.content,
      messages: result.messages,
      usage: result.usage,
      turns: result.turns,
    }).toEqual({
      content: local.content,
      messages: local.messages,
      usage: local.usage,
      turns: local.turns,
    });
  }
  await until(() => completions.size === ids.length, 10_000);
  expect([...completions.values()].filter((count) => count !== 1)).toEqual([]);
}

/** `(runId, toolCallId)` of each call, and how often it finished. */
function finishesByCall(log: readonly LogLine[]): Map<string, LogLine[]> {
  const calls = new Map<string, LogLine[]>();
  for (const line of log.filter((entry) => entry.event === 'finish')) {
    const key = `${line.runId} ${line.toolCallId}`;
    calls.set(key, [...(calls.get(key) ?? []), line]);
  }
  return calls;
}

describe(`${runCount} runs across ${workerCount} worker processes`, () => {
  it(
    'none lost, none completed twice, each the in-process result, each tool run once',
    { timeout: 180_000 },
    async (context) => {
      if (redis.skipReason !== undefined) context.skip(redis.skipReason);
      const queueName = 'load';
      const logPath = join(scratch, 'load.log');
      const started = await Promise.all(
        Array.from({ length: workerCount }, () =>
          startWorkerProcess({ port: redis.server.port, queueName, logPath, concurrency }),
        ),
      );
      workers.push(...started);
      const queue = createRunQueue({ connection: redis.server.connection, queueName });
      const completions = await countCompletions(queueName);
      try {
        const expected = await expectedResults('load');
        const began = Date.now();
        const ids = await enqueueAll(queue, 'load');
        await expectAllFinishedOnce(queue, ids, expected, completions.counts);
        console.info(`${runCount} runs on ${workerCount} worker processes: ${Date.now() - began} ms`);
        const finishes = finishesByCall(readToolLog(logPath));
        expect(finishes.size).toBe(runCount * 3);
        expect([...finishes.values()].filter((lines) => lines.length !== 1)).toEqual([]);
        // Every worker took a share.
        expect(new Set([...finishes.values()].map((lines) => lines[0]!.pid)).size).toBe(workerCount);
      } finally {
        await completions.close();
        await queue.close();
        await Promise.all(started.map((worker) => worker.stop()));
      }
    },
  );

  it(
    "with one worker killed in the middle and another started: none lost, none completed twice; only the killed worker's calls ran again",
    { timeout: 180_000 },
    async (context) => {
      if (redis.skipReason !== undefined) context.skip(redis.skipReason);
      const queueName = 'load-kill';
      const logPath = join(scratch, 'load-kill.log');
      const options = { port: redis.server.port, queueName, logPath, concurrency };
      const started = await Promise.all(
        Array.from({ length: workerCount }, () => startWorkerProcess(options)),
      );
      workers.push(...started);
      const queue = createRunQueue({ connection: redis.server.connection, queueName });
      const completions = await countCompletions(queueName);
      try {
        const expected = await expectedResults('kill');
        const ids = await enqueueAll(queue, 'kill');
        // Kill a worker while it is in the middle of runs: at least 5 of its runs have started a tool
        // and not yet finished their last one (each needs another 5-20 ms tool at least).
        const victim = started[0]!;
        const inFlight = (): number => {
          const runs = new Map<string, boolean>();
          for (const line of readToolLog(logPath)) {
            if (line.pid !== victim.pid) continue;
            if (!runs.has(line.runId)) runs.set(line.runId, true);
            if (line.event === 'finish' && line.toolCallId === 'call-3') runs.set(line.runId, false);
          }
          return [...runs.values()].filter(Boolean).length;
        };
        await until(() => completions.counts.size >= runCount / 10 && inFlight() >= 5, 60_000);
        await victim.kill();
        const replacement = await startWorkerProcess(options);
        workers.push(replacement);
        await expectAllFinishedOnce(queue, ids, expected, completions.counts);
        const finishes = finishesByCall(readToolLog(logPath));
        expect(finishes.size).toBe(runCount * 3);
        // A call finished twice only when the killed worker died between the tool's end and its checkpoint.
        const twice = [...finishes.values()].filter((lines) => lines.length !== 1);
        expect(twice.filter((lines) => lines.length > 2 || lines[0]!.pid !== victim.pid)).toEqual([]);
        expect(twice.length).toBeLessThanOrEqual(concurrency);
        // The killed worker's runs were finished by others, from their checkpoints.
        const log = readToolLog(logPath);
        const startedInVictim = new Set(
          log.filter((line) => line.pid === victim.pid).map((line) => line.runId),
        );
        const finishedElsewhere = [...startedInVictim].filter((runId) =>
          log.some((line) => line.runId === runId && line.event === 'finish' && line.pid !== victim.pid),
        );
        expect(finishedElsewhere.length).toBeGreaterThan(0);
        const byReplacement = new Set(
          log.filter((line) => line.pid === replacement.pid).map((line) => line.runId),
        );
        console.info(
          `killed worker: ${finishedElsewhere.length} of its runs finished by others; the replacement ran ${byReplacement.size} runs`,
        );
      } finally {
        await completions.close();
        await queue.close();
        await Promise.all(workers.map((worker) => worker.stop()));
      }
    },
  );
});
