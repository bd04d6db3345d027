import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunQueue } from '../../src/bullmq.js';
import { useRedisServer } from '../support/redis-fixture.js';
import { expectValidTranscript } from '../support/transcript.js';
import { until } from '../support/until.js';
import { scriptedInput, scriptedOrchestrator } from './fixtures/scripted-runs.js';
import type { WorkerProcess } from './fixtures/worker-processes.js';
import { readToolLog, startWorkerProcess } from './fixtures/worker-processes.js';

// Two worker processes take runs from one queue; the one running a tool is SIGKILLed, and the
// other takes the run over from its checkpoint once the dead worker's lock expires (3 s here).
const redis = useRedisServer();
let scratch: string;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'kill-worker-'));
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  await rm(scratch, { recursive: true, force: true });
}, 20_000);

describe('a worker killed while a tool runs', () => {
  it(
    'leaves its run to the other worker, which finishes it: every finished tool ran to its end once',
    { timeout: 60_000 },
    async (context) => {
      if (redis.skipReason !== undefined) context.skip(redis.skipReason);
      const logPath = join(scratch, 'tools.log');
      const options = { port: redis.server.port, queueName: 'kill-test', logPath, concurrency: 2 };
      workers.push(...(await Promise.all([startWorkerProcess(options), startWorkerProcess(options)])));
      const queue = createRunQueue({ connection: redis.server.connection, queueName: 'kill-test' });
      try {
        const input = scriptedInput({ name: 'killed', ms: [5, 1_500, 5] });
        await queue.enqueue({ messages: input, runId: 'killed' });
        // Wait until the slow call runs, then kill the process that runs it.
        await until(
          () => readToolLog(logPath).some((line) => line.event === 'start' && line.toolCallId === 'call-2'),
          15_000,
        );
        const running = readToolLog(logPath).find((line) => line.toolCallId === 'call-2')!.pid;
        const victim = workers.find((worker) => worker.pid === running)!;
        expect(victim, 'the log names a worker process').toBeDefined();
        await victim.kill();
        expect(victim.child.signalCode).toBe('SIGKILL');

        const result = await queue.result('killed', { timeoutMs: 30_000 });
        const local = await scriptedOrchestrator().run(input, undefined, { runId: 'killed' });
        expect(result.content).toBe('killed: step 1 done | step 2 done | step 3 done');
        expect(result.messages).toEqual(local.messages);
        expect(result.usage).toEqual(local.usage);
        expectValidTranscript(result.messages);

        const log = readToolLog(logPath);
        const survivor = workers.find((worker) => worker !== victim)!.pid;
        const lines = (event: string, toolCallId: string) =>
          log.filter((line) => line.event === event && line.toolCallId === toolCallId);
        // Every tool finished exactly once overall...
        expect(
          log
            .filter((line) => line.event === 'finish')
            .map((line) => line.toolCallId)
            .sort(),
        ).toEqual(['call-1', 'call-2', 'call-3']);
        // ...the one finished before the kill never started again, the interrupted one started again
        // in the survivor with the same toolCallId, and the rest ran there.
        expect(lines('start', 'call-1').map((line) => line.pid)).toEqual([running]);
        expect(lines('start', 'call-2').map((line) => line.pid)).toEqual([running, survivor]);
        expect(lines('finish', 'call-2').map((line) => line.pid)).toEqual([survivor]);
        expect(lines('finish', 'call-3').map((line) => line.pid)).toEqual([survivor]);
      } finally {
        await queue.close();
      }
    },
  );
});
