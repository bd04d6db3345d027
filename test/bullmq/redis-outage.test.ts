import { afterEach, describe, expect, it } from 'vitest';
import type { RunQueue, RunWorker } from '../../src/bullmq.js';
import { createRunQueue, createRunWorker } from '../../src/bullmq.js';
import type { RedisServer } from '../support/redis-server.js';
import { freePort } from '../support/free-port.js';
import { redisUnavailableReason, startRedisServer } from '../support/redis-server.js';
import { serviceUnavailable } from '../support/service-availability.js';
import { until } from '../support/until.js';
import { scriptedInput, scriptedOrchestrator } from './fixtures/scripted-runs.js';

// Redis going away under running workers, and workers that start before Redis: runs go on once
// Redis is there. The server here keeps its data (an append-only file, fsync on every write), as a
// production Redis behind a queue must.
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 30_000);

function skipReason(): string | undefined {
  const reason = redisUnavailableReason();
  return reason === undefined ? undefined : serviceUnavailable('Redis', reason);
}

const inputOf = (index: number) => scriptedInput({ name: `r${index}`, ms: [5 + (index % 16), 10, 20] });

function workers(server: RedisServer, queueName: string, count: number, errors: Error[]): RunWorker[] {
  return Array.from({ length: count }, () =>
    createRunWorker({
      connection: server.connection,
      queueName,
      concurrency: 10,
      orchestrator: () => scriptedOrchestrator(),
      lockDuration: 5_000,
      stalledInterval: 1_000,
      onError: (error) => errors.push(error),
    }),
  );
}

describe('Redis away', () => {
  it(
    'restarting mid-load: the runs go on once it is back, each with the in-process result',
    { timeout: 90_000 },
    async (context) => {
      const reason = skipReason();
      if (reason !== undefined) context.skip(reason);
      const server = await startRedisServer({ persistent: true });
      cleanups.push(() => server.stop());
      const errors: Error[] = [];
      const running = workers(server, 'outage', 2, errors);
      const queue: RunQueue = createRunQueue({ connection: server.connection, queueName: 'outage' });
      cleanups.push(async () => {
        await Promise.all(running.map((worker) => worker.close({ force: true })));
        await queue.close();
      });
      const count = 300;
      const ids = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          queue.enqueue({ messages: inputOf(index), runId: `outage-${index}` }),
        ),
      );
      let ended = 0;
      const results = Promise.all(
        ids.map((runId) =>
          queue.result(runId, { timeoutMs: 60_000 }).then((result) => {
            ended++;
            return result;
          }),
        ),
      );
      // Kill Redis while runs are under way, keep it away for a second, bring it back.
      await until(() => ended >= 30, 30_000);
      await server.kill();
      const endedBeforeTheKill = ended;
      expect(endedBeforeTheKill).toBeLessThan(count);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await server.start();
      const all = await results;
      expect(all.filter((result) => result.stopReason !== 'final').map((result) => result.runId)).toEqual([]);
      const local = scriptedOrchestrator();
      for (const [index, result] of all.entries()) {
        const expected = await local.run(inputOf(index), undefined, { runId: result.runId });
        expect(result.messages).toEqual(expected.messages);
      }
      // The workers saw Redis go (and said so), and went on by themselves.
      expect(errors.length).toBeGreaterThan(0);
    },
  );

  it('a worker started before Redis is up takes runs once it is', { timeout: 60_000 }, async (context) => {
    const reason = skipReason();
    if (reason !== undefined) context.skip(reason);
    const port = await freePort();
    const server = await startRedisServer({ port, deferStart: true });
    cleanups.push(() => server.stop());
    const errors: Error[] = [];
    const [worker] = workers(server, 'early', 1, errors);
    cleanups.push(() => worker!.close({ force: true }));
    await until(() => errors.length > 0, 10_000);
    expect(String(errors[0]?.message)).toMatch(/ECONNREFUSED/);
    await server.start();
    await worker!.waitUntilReady();
    const queue = createRunQueue({ connection: server.connection, queueName: 'early' });
    cleanups.push(() => queue.close());
    const runId = await queue.enqueue({ messages: inputOf(1) });
    const result = await queue.result(runId, { timeoutMs: 30_000 });
    expect(result.content).toBe('r1: step 1 done | step 2 done | step 3 done');
  });
});
