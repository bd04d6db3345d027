import type { ConnectionOptions, Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CheckpointStore } from '../durable/checkpoint-store.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import { loadBullmq } from './load-bullmq.js';
import { cancelChannel, cancelKey, defaultPrefix, defaultQueueName } from './queue-keys.js';
import { RedisCheckpointStore } from './redis-checkpoint-store.js';
import type { RedisConnection } from './redis-connection.js';
import { closeClient, duplicateOf } from './redis-connection.js';
import type { OrchestratorFactory, QueuedRunResult, RunJob, RunJobData } from './run-job.js';
import { executeRunJob } from './run-job.js';

/** Options of {@link createRunWorker}. */
export interface RunWorkerOptions {
  /** An `ioredis` client of yours (never closed here; needs `maxRetriesPerRequest: null`), or `ioredis` options. */
  readonly connection: RedisConnection;
  /** The BullMQ queue to take runs from. @default 'tool-orchestrator-runs' */
  readonly queueName?: string;
  /** BullMQ's key prefix, as the queue's. @default 'bull' */
  readonly prefix?: string;
  /** Runs this worker runs at once (they mostly wait on the model and tools). @default 1 */
  readonly concurrency?: number;
  /**
   * The orchestrator that runs a job: the same tools and model for every attempt of a run (a
   * resume with others is refused). May be one instance for every job.
   */
  readonly orchestrator: OrchestratorFactory;
  /** BullMQ's rate limiter: at most `max` runs started per `duration` ms, over all workers of the queue. */
  readonly limiter?: { readonly max: number; readonly duration: number };
  /** Where checkpoints go. @default new RedisCheckpointStore({ connection }) */
  readonly checkpointStore?: CheckpointStore;
  /** Receives every trace event of the runs of this worker (each carries its `runId`). */
  readonly onEvent?: (event: TraceEvent) => void;
  /** Keep each run's trace events in its result (they travel through Redis). @default false */
  readonly keepTraces?: boolean;
  /**
   * How long a worker's hold on a run lasts without renewal (renewed every half of it while the
   * worker lives): a dead worker's run goes to another after this much. @default 30_000
   */
  readonly lockDuration?: number;
  /** How often this worker looks for runs whose worker died. @default 30_000 */
  readonly stalledInterval?: number;
  /** How many times a run may be taken over after its worker died before it fails. @default 5 */
  readonly maxStalledCount?: number;
  /** Called with errors of the worker's connection (Redis away, ...): it goes on by itself. @default ignored */
  readonly onError?: (error: Error) => void;
}

/** A running worker. */
export interface RunWorker {
  /**
   * Resolves once the worker is connected and takes runs.
   * @throws {MissingDependencyError} when `bullmq` or `ioredis` is not installed (`onError` gets it too).
   */
  waitUntilReady(): Promise<void>;
  /**
   * Stops taking runs and waits for the ones it runs to end; with `force`, leaves them at once
   * (they are taken over by another worker, from their checkpoints, after `lockDuration`).
   */
  close(options?: { readonly force?: boolean }): Promise<void>;
}

/**
 * Runs queued runs (`createRunQueue`): each job runs with `run()`, checkpointing every step, or
 * goes on with `resume()` from its checkpoint when a worker that had it died (BullMQ hands a
 * stalled job to another worker). A tool that finished never runs again; the one interrupted runs
 * again with the same `toolCallId`. The result is the job's return value.
 *
 * `bullmq` and `ioredis` (optional peer dependencies) are loaded when the worker starts, just
 * after this returns: without them, `waitUntilReady()` rejects with a `MissingDependencyError`
 * naming the install command, and `onError` receives it.
 *
 * @example
 * const worker = createRunWorker({
 *   connection: { host: '127.0.0.1', port: 6379 },
 *   concurrency: 20,
 *   orchestrator: () => new ToolOrchestrator(adapter, tools),
 * });
 */
export function createRunWorker(options: RunWorkerOptions): RunWorker {
  checkWorkerOptions(options);
  const queueName = options.queueName ?? defaultQueueName;
  const prefix = options.prefix ?? defaultPrefix;
  const onError = (error: Error): void => options.onError?.(error);
  const ownStore = options.checkpointStore === undefined;
  const store =
    options.checkpointStore ?? new RedisCheckpointStore({ connection: options.connection, onError });

  // Loading bullmq and ioredis (optional peer dependencies) is asynchronous: the worker starts once
  // they are loaded; nothing is connected before both are.
  const start = async (): Promise<StartedWorker> => {
    const { Worker } = await loadBullmq();
    const commands: Redis = await duplicateOf(options.connection);
    const subscriber: Redis = await duplicateOf(options.connection);
    commands.on('error', onError);
    subscriber.on('error', onError);

    const processor = async (
      job: Job<RunJobData, QueuedRunResult>,
      _token?: string,
      signal?: AbortSignal,
    ): Promise<QueuedRunResult> => {
      const runJob: RunJob = { runId: job.data.runId, data: job.data, attempt: job.attemptsStarted };
      // A run cancelled before it started (or before this worker took it over) runs nothing.
      const cancelled = (await commands.exists(cancelKey(prefix, queueName, runJob.runId))) === 1;
      return executeRunJob(runJob, {
        orchestrator: options.orchestrator,
        checkpointStore: store,
        signal: cancelled ? AbortSignal.abort('cancelled') : (signal ?? new AbortController().signal),
        ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
        ...(options.keepTraces === undefined ? {} : { keepTraces: options.keepTraces }),
      });
    };

    const worker = new Worker<RunJobData, QueuedRunResult>(queueName, processor, {
      connection: options.connection as ConnectionOptions,
      prefix,
      concurrency: options.concurrency ?? 1,
      ...(options.limiter === undefined ? {} : { limiter: { ...options.limiter } }),
      ...(options.lockDuration === undefined ? {} : { lockDuration: options.lockDuration }),
      ...(options.stalledInterval === undefined ? {} : { stalledInterval: options.stalledInterval }),
      maxStalledCount: options.maxStalledCount ?? 5,
    });
    worker.on('error', onError);

    const channel = cancelChannel(prefix, queueName);
    subscriber.on('message', (from: string, runId: string) => {
      if (from === channel) worker.cancelJob(runId, 'cancelled');
    });
    const subscribed = subscriber.subscribe(channel);
    subscribed.catch(onError);
    return { worker, commands, subscriber, subscribed };
  };
  const started = start();
  // A worker that cannot start (bullmq or ioredis missing) tells onError; with no onError and no
  // waitUntilReady() to reject, the rejection is left unhandled rather than silent.
  if (options.onError !== undefined) started.catch(onError);

  return {
    async waitUntilReady() {
      const { worker, subscribed } = await started;
      await Promise.all([worker.waitUntilReady(), subscribed]);
    },
    async close(closeOptions = {}) {
      const parts = await started.catch(() => undefined);
      if (parts !== undefined) {
        await parts.worker.close(closeOptions.force === true);
        await Promise.all([closeClient(parts.subscriber), closeClient(parts.commands)]);
      }
      if (ownStore) await (store as RedisCheckpointStore).close();
    },
  };
}

/** A worker's parts, once bullmq and ioredis are loaded. */
interface StartedWorker {
  readonly worker: Worker<RunJobData, QueuedRunResult>;
  readonly commands: Redis;
  readonly subscriber: Redis;
  readonly subscribed: Promise<unknown>;
}

function checkWorkerOptions(options: RunWorkerOptions): void {
  const given = options as Partial<RunWorkerOptions> | undefined;
  if (typeof given?.connection !== 'object' || given.connection === null) {
    throw new InvalidArgumentError({
      argument: 'connection',
      value: given?.connection,
      message: "must be an ioredis client or ioredis options, e.g. { host: '127.0.0.1', port: 6379 }.",
    });
  }
  if (typeof given.orchestrator !== 'function') {
    throw new InvalidArgumentError({
      argument: 'orchestrator',
      value: given.orchestrator,
      message:
        'must be a function (job) => ToolOrchestrator, e.g. () => new ToolOrchestrator(adapter, tools).',
    });
  }
  for (const name of ['concurrency', 'lockDuration', 'stalledInterval', 'maxStalledCount'] as const) {
    const value = given[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new InvalidArgumentError({ argument: name, value, message: 'must be an integer of at least 1.' });
    }
  }
  const limiter = given.limiter;
  if (
    limiter !== undefined &&
    !(
      Number.isInteger(limiter?.max) &&
      limiter.max >= 1 &&
      Number.isInteger(limiter.duration) &&
      limiter.duration >= 1
    )
  ) {
    throw new InvalidArgumentError({
      argument: 'limiter',
      value: limiter,
      message:
        'must be { max, duration }: at most max runs started per duration milliseconds, e.g. { max: 10, duration: 1000 }.',
    });
  }
}
