import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { RedisCheckpointStore, createRunQueue } from 'tool-orchestrator/bullmq';
import type { CheckpointStore } from 'tool-orchestrator';
import { redisUnavailableReason, startRedisServer } from '../../../test/support/redis-server.js';
import type { RedisServer } from '../../../test/support/redis-server.js';
import { formatNumber, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { compiledChildPath } from '../run-child.js';
import { expectedContent, scaleInput, scaleOrchestrator, toolMs, turnsPerRun } from './scale-script.js';

export interface ScaleSuiteOptions {
  readonly rounds: number;
  /** Runs per measurement. */
  readonly runs: number;
  /** Runs each worker process runs at once. */
  readonly concurrency: number;
  readonly log: (line: string) => void;
}

const workerCounts = [1, 2, 4] as const;

/** Starts a worker process and resolves once it prints READY (bounded at 30 s). */
function startWorker(port: number, queueName: string, concurrency: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [compiledChildPath('scale-worker'), JSON.stringify({ port, queueName, concurrency })],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('a worker process did not start within 30 s'));
    }, 30_000);
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('READY')) {
        clearTimeout(deadline);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`a worker process exited (${code}) before it was ready`));
    });
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs per second through the queue with `workers` worker processes. */
async function queuedRunsPerSecond(
  server: RedisServer,
  workers: number,
  options: ScaleSuiteOptions,
  queueName: string,
): Promise<{ runsPerSecond: number; redisMsPerRun: number }> {
  const processes = await Promise.all(
    Array.from({ length: workers }, () => startWorker(server.port, queueName, options.concurrency)),
  );
  const queue = createRunQueue({ connection: server.connection, queueName });
  const client = new Redis(server.connection);
  try {
    const cpuBefore = await redisCpuSeconds(client);
    const started = performance.now();
    const ids: string[] = [];
    for (let start = 0; start < options.runs; start += 200) {
      const batch = Array.from({ length: Math.min(200, options.runs - start) }, (_, offset) =>
        queue.enqueue({ messages: scaleInput(start + offset), runId: `${queueName}-${start + offset}` }),
      );
      ids.push(...(await Promise.all(batch)));
    }
    const results = await Promise.all(ids.map((runId) => queue.result(runId, { timeoutMs: 300_000 })));
    const seconds = (performance.now() - started) / 1000;
    const wrong = results.filter((result) => result.content !== expectedContent).length;
    if (wrong > 0) throw new Error(`${wrong} queued runs ended with another text`);
    const redisMs = ((await redisCpuSeconds(client)) - cpuBefore) * 1000;
    return { runsPerSecond: options.runs / seconds, redisMsPerRun: redisMs / options.runs };
  } finally {
    client.disconnect();
    await queue.close();
    await Promise.all(processes.map(stopWorker));
  }
}

/** The CPU time the Redis server has used, from `INFO cpu`. */
async function redisCpuSeconds(client: Redis): Promise<number> {
  const info = await client.info('cpu');
  const field = (name: string): number =>
    Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? Number.NaN);
  return field('used_cpu_sys') + field('used_cpu_user');
}

/** Runs per second of `run()` in this process, `concurrency` at once, with `store` or none. */
async function inProcessRunsPerSecond(
  options: ScaleSuiteOptions,
  concurrency: number,
  store: CheckpointStore | undefined,
  prefix: string,
): Promise<number> {
  const orchestrator = scaleOrchestrator();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < options.runs) {
        const index = next++;
        const result = await orchestrator.run(scaleInput(index), undefined, {
          ...(store === undefined ? {} : { checkpointStore: store, runId: `${prefix}-${index}` }),
        });
        if (result.content !== expectedContent) throw new Error(`run ${index} ended with another text`);
      }
    }),
  );
  return options.runs / ((performance.now() - started) / 1000);
}

/**
 * Redis round trips a queued run makes, by who makes them, from MONITOR over `runs` runs one at a
 * time: a command sent on its own, a script (EVALSHA) or a MULTI ... EXEC transaction counts once.
 */
async function roundTripsPerTurn(
  server: RedisServer,
  runs: number,
): Promise<{ store: number; bullmq: number; total: number }> {
  const worker = await startWorker(server.port, 'monitored', 1);
  const queue = createRunQueue({ connection: server.connection, queueName: 'monitored' });
  const client = new Redis(server.connection);
  const monitor = await client.monitor();
  let store = 0;
  let bullmq = 0;
  const inTransaction = new Map<string, boolean>();
  let transactionOfStore = false;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source.includes('lua')) return; // Run inside a script: no round trip of its own.
    const command = args[0]?.toLowerCase() ?? '';
    const ofStore = args.some((arg) => arg.startsWith('tool-orchestrator:checkpoint:'));
    if (command === 'multi') {
      inTransaction.set(source, true);
      transactionOfStore = false;
      return;
    }
    if (inTransaction.get(source) === true && command !== 'exec') {
      transactionOfStore ||= ofStore;
      return;
    }
    if (command === 'exec') inTransaction.set(source, false);
    // Blocking reads and lock renewals come with time, not with runs: left out.
    if (['monitor', 'bzpopmin', 'xread', 'info', 'client', 'ping'].includes(command)) return;
    if (ofStore || (command === 'exec' && transactionOfStore)) store++;
    else bullmq++;
  });
  try {
    for (let index = 0; index < runs; index++) {
      const runId = await queue.enqueue({ messages: scaleInput(index), runId: `monitored-${index}` });
      await queue.result(runId, { timeoutMs: 60_000 });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    monitor.disconnect();
    client.disconnect();
    await queue.close();
    await stopWorker(worker);
  }
  const turns = runs * turnsPerRun;
  return { store: store / turns, bullmq: bullmq / turns, total: (store + bullmq) / turns };
}

/**
 * The scale-out benchmark: runs per second through BullMQ and Redis with 1, 2 and 4 worker
 * processes against `run()` in one process (no store, and with `RedisCheckpointStore`), and the
 * Redis commands a queued run sends per turn.
 */
export async function runScaleSuite(options: ScaleSuiteOptions): Promise<{ markdown: string }> {
  const unavailable = redisUnavailableReason();
  if (unavailable !== undefined) {
    return { markdown: `### Scale-out on BullMQ and Redis\n\nNot measured: ${unavailable}.` };
  }
  const figures = new Map<string, number[]>();
  const record = (name: string, value: number): void => {
    figures.set(name, [...(figures.get(name) ?? []), value]);
  };
  let commands: { store: number; bullmq: number; total: number } | undefined;
  const redisCpu: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const server = await startRedisServer();
    try {
      const counts = round % 2 === 0 ? [...workerCounts] : [...workerCounts].reverse();
      const line: string[] = [];
      const inProcess = await inProcessRunsPerSecond(
        options,
        options.concurrency,
        undefined,
        `plain-${round}`,
      );
      record('run() in process, no store', inProcess);
      const store = new RedisCheckpointStore({ connection: server.connection });
      const withStore = await inProcessRunsPerSecond(options, options.concurrency, store, `stored-${round}`);
      await store.close();
      record('run() in process, RedisCheckpointStore', withStore);
      line.push(`in process ${inProcess.toFixed(0)}/s, with Redis store ${withStore.toFixed(0)}/s`);
      for (const workers of counts) {
        const { runsPerSecond: rate, redisMsPerRun } = await queuedRunsPerSecond(
          server,
          workers,
          options,
          `scale-${round}-${workers}`,
        );
        record(`queue, ${workers} worker process${workers === 1 ? '' : 'es'}`, rate);
        redisCpu.push(redisMsPerRun);
        line.push(`${workers} workers ${rate.toFixed(0)}/s`);
      }
      if (round === 0) commands = await roundTripsPerTurn(server, 20);
      options.log(`  round ${round + 1}/${options.rounds}: ${line.join(', ')}`);
    } finally {
      await server.stop();
    }
  }
  const reference = median(figures.get('run() in process, no store') ?? []);
  const one = median(figures.get('queue, 1 worker process') ?? []);
  const rows = [...figures.entries()].map(([name, values]) => [
    name,
    formatNumber(median(values), 0),
    `${(median(values) / reference).toFixed(2)}x`,
    name.startsWith('queue') ? `${(median(values) / one).toFixed(2)}x` : '',
  ]);
  return {
    markdown: [
      `### Scale-out on BullMQ and Redis (${options.runs} runs of ${turnsPerRun} turns, tools sleeping ${toolMs} ms, ${options.concurrency} runs at once per process)`,
      '',
      'Medians over rounds; a fresh redis-server (no persistence) per round, worker counts in alternating order.',
      '',
      markdownTable(['variant', 'runs/s', '/ run() in process', '/ 1 worker'], rows),
      '',
      commands === undefined
        ? ''
        : `Redis round trips per turn of a queued run (MONITOR, 20 runs one at a time; a script or a MULTI/EXEC counts once, blocking reads and lock renewals left out): ${commands.total.toFixed(2)}, of which the checkpoint store ${commands.store.toFixed(2)} and BullMQ ${commands.bullmq.toFixed(2)}.`,
      '',
      `Redis CPU per queued run (INFO cpu over each measurement): ${median(redisCpu).toFixed(3)} ms, so one Redis core saturates near ${formatNumber(1000 / median(redisCpu), 0)} runs/s of this shape.`,
      '',
      `Checkpoint cost per turn in process (RedisCheckpointStore against no store, from the throughputs above): ${(((1 / median(figures.get('run() in process, RedisCheckpointStore') ?? []) - 1 / reference) * 1000) / turnsPerRun).toFixed(3)} ms of the process's time per turn.`,
    ].join('\n'),
  };
}
