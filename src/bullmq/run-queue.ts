import type * as Bullmq from 'bullmq';
import type { ConnectionOptions, Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ApprovalDecision, PendingApproval } from '../durable/run-state.js';
import { AbortedError } from '../errors/aborted-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ChatMessage } from '../model/messages.js';
import { applyDecisions } from '../orchestrator/approvals.js';
import { loadBullmq } from './load-bullmq.js';
import type { RunJobData, QueuedRunResult } from './run-job.js';
import { RunJobFailedError } from './run-job-failed-error.js';
import {
  approveClaimKey,
  approveClaimSeconds,
  cancelChannel,
  cancelKey,
  cancelMarkSeconds,
  defaultPrefix,
  defaultQueueName,
} from './queue-keys.js';
import type { OwnedClient, RedisConnection } from './redis-connection.js';
import { clientFor, release } from './redis-connection.js';

/** Options of {@link createRunQueue}. */
export interface RunQueueOptions {
  /** An `ioredis` client of yours (never closed here; needs `maxRetriesPerRequest: null`), or `ioredis` options. */
  readonly connection: RedisConnection;
  /** The BullMQ queue; workers must name the same one. @default 'tool-orchestrator-runs' */
  readonly queueName?: string;
  /** BullMQ's key prefix; workers must use the same one. @default 'bull' */
  readonly prefix?: string;
  /** Called with errors of the queue's connections (Redis away, ...): they reconnect by themselves. @default ignored */
  readonly onError?: (error: Error) => void;
}

/** What {@link RunQueue.enqueue} takes: the input of `orchestrator.run()`, as JSON. */
export interface EnqueueRunInput {
  readonly messages: readonly ChatMessage[];
  readonly systemPrompt?: string;
  /** The run's `context` for its tools; JSON only (it travels through Redis). */
  readonly context?: RunJobData['context'];
  /**
   * The run's id, also its BullMQ job id: enqueueing an id that is already queued, running or
   * finished makes no second run. No `:`, and not a plain integer (BullMQ's rules for job ids).
   * @default crypto.randomUUID()
   */
  readonly runId?: string;
  readonly maxTurns?: number;
}

/** Options of {@link RunQueue.result}. */
export interface RunResultOptions {
  /** Reject with `AbortedError` when the run has not finished after this long. @default no limit */
  readonly timeoutMs?: number;
}

/** What {@link RunQueue.cancel} did. */
export type CancelOutcome =
  /** The run had not started: it was taken off the queue. */
  | 'removed'
  /** The run is running: its worker aborts it (`stopReason: 'aborted'`, its transcript valid). */
  | 'aborting'
  /** The run had already finished (or waits for approval): nothing to cancel. */
  | 'finished'
  /** No run has this id in the queue. */
  | 'not_found';

/** The producer side: puts runs on the queue and reads their results. */
export interface RunQueue {
  /** Puts a run on the queue; resolves to its run id. The same `runId` twice makes one run. */
  enqueue(input: EnqueueRunInput): Promise<string>;
  /**
   * The run's result once a worker finished it (`stopReason: 'awaiting_approval'` when it waits
   * for a person: see `approve`).
   * @throws {RunJobFailedError} when the run failed in its worker.
   * @throws {AbortedError} when `timeoutMs` passed first.
   * @throws {InvalidArgumentError} when no run has this id.
   */
  result(runId: string, options?: RunResultOptions): Promise<QueuedRunResult>;
  /** Aborts a running run, or takes a waiting one off the queue. */
  cancel(runId: string): Promise<CancelOutcome>;
  /**
   * Records decisions on the calls of a run that ended `awaiting_approval`, and puts the run back
   * on the queue: a worker resumes it from its checkpoint. `result()` then waits for the new end.
   * Of two calls on one pause (two reviewers at once), only the first decides; the other throws.
   * @throws {InvalidArgumentError} when the run does not wait for approval, another `approve()` has
   * already taken this pause, or a decision names a call that waits for none.
   */
  approve(runId: string, approvals: { readonly [toolCallId: string]: ApprovalDecision }): Promise<void>;
  /** Closes the queue's connections (the runs stay in Redis). */
  close(): Promise<void>;
}

/**
 * The producer side of scale-out: runs go onto a BullMQ queue in Redis, and workers
 * (`createRunWorker`) on any number of machines run them. `bullmq` and `ioredis` (optional peer
 * dependencies) are loaded by the first call: without them, it rejects with a
 * `MissingDependencyError` naming the install command.
 *
 * @example
 * const queue = createRunQueue({ connection: { host: '127.0.0.1', port: 6379 } });
 * const runId = await queue.enqueue({ messages: [{ role: 'user', content: 'hi' }] });
 * const result = await queue.result(runId, { timeoutMs: 60_000 });
 */
export function createRunQueue(options: RunQueueOptions): RunQueue {
  checkConnection(options);
  const queueName = options.queueName ?? defaultQueueName;
  const prefix = options.prefix ?? defaultPrefix;
  const connection = options.connection;
  const bullConnection = connection as ConnectionOptions;
  const onError = (error: Error): void => options.onError?.(error);
  // Made on first use: loading bullmq (an optional peer dependency) is asynchronous.
  let started: Promise<StartedQueue> | undefined;
  const start = async (): Promise<StartedQueue> => {
    const bullmq = await loadBullmq();
    const queue = new bullmq.Queue<RunJobData, QueuedRunResult, 'run'>(queueName, {
      connection: bullConnection,
      prefix,
    });
    // Each result() that waits adds a 'closing' listener (BullMQ's waitUntilFinished) until its run ends.
    queue.setMaxListeners(0);
    queue.on('error', onError);
    return { bullmq, queue };
  };
  const queueOf = (): Promise<StartedQueue> => {
    if (started === undefined) {
      const starting = start();
      started = starting;
      // A failed start (bullmq missing) is tried again on the next call.
      starting.catch(() => {
        if (started === starting) started = undefined;
      });
    }
    return started;
  };
  let events: Promise<QueueEvents> | undefined;
  let client: Promise<OwnedClient> | undefined;
  const redis = async (): Promise<Redis> => {
    if (client === undefined) {
      const connecting = clientFor(connection).then((owned) => {
        if (owned.owned) owned.client.on('error', onError);
        return owned;
      });
      client = connecting;
      connecting.catch(() => {
        if (client === connecting) client = undefined;
      });
    }
    return (await client).client;
  };
  const queueEvents = async (): Promise<QueueEvents> => {
    if (events === undefined) {
      const making = queueOf().then(({ bullmq }) => {
        const made = new bullmq.QueueEvents(queueName, { connection: bullConnection, prefix });
        made.on('error', onError);
        return made;
      });
      events = making;
      making.catch(() => {
        if (events === making) events = undefined;
      });
    }
    const listening = await events;
    await listening.waitUntilReady();
    return listening;
  };
  const jobOf = async (runId: string) => {
    checkJobId(runId, 'runId');
    const { bullmq, queue } = await queueOf();
    return (await bullmq.Job.fromId(queue, runId)) as Job<RunJobData, QueuedRunResult> | undefined;
  };

  return {
    async enqueue(input) {
      const data = jobData(input);
      const { queue } = await queueOf();
      await queue.add('run', data, { jobId: data.runId });
      // BullMQ keeps the first job of an id; make sure it is this input, not a different one.
      const stored = await jobOf(data.runId);
      if (stored !== undefined) {
        const { approvals: _approvals, ...storedInput } = stored.data;
        if (JSON.stringify(storedInput) !== JSON.stringify(data)) {
          throw new InvalidArgumentError({
            argument: 'runId',
            value: data.runId,
            message:
              'is already queued with another input; a run id names one run: use a new id for a new run.',
          });
        }
      }
      return data.runId;
    },

    async result(runId, resultOptions = {}) {
      const timeoutMs = resultOptions.timeoutMs;
      if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
        throw new InvalidArgumentError({
          argument: 'timeoutMs',
          value: timeoutMs,
          message: 'must be a positive number of milliseconds, or left out (no limit).',
        });
      }
      const job = await jobOf(runId);
      if (job === undefined) throw noSuchRun(runId, queueName);
      const { bullmq, queue } = await queueOf();
      const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
      let listening: QueueEvents | undefined;
      // Waits for the run's end event, and reads the job's state between waits: an event sent while
      // the listener was starting is not waited for in vain.
      for (let wait = 500; ; wait = Math.min(wait * 2, 5_000)) {
        const finished = await settled(bullmq, queue, job);
        if (finished === 'removed') throw noSuchRun(runId, queueName);
        if (finished !== undefined) return finished;
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          throw new AbortedError({
            message: `The run "${runId}" did not finish within timeoutMs (${timeoutMs} ms); it goes on in its worker: call result() again to wait longer.`,
          });
        }
        listening ??= await queueEvents();
        try {
          await job.waitUntilFinished(listening, Math.min(wait, remaining));
        } catch {
          // A wait that timed out, a run that failed, Redis away: the state read next says which.
        }
      }
    },

    async cancel(runId) {
      const job = await jobOf(runId);
      if (job === undefined) return 'not_found';
      const state = await job.getState();
      if (state === 'completed' || state === 'failed') return 'finished';
      const client = await redis();
      // The mark first: a worker that takes the run from now on sees it before running anything.
      await client.set(cancelKey(prefix, queueName, runId), '1', 'EX', cancelMarkSeconds);
      if (state !== 'active') {
        try {
          await job.remove();
          return 'removed';
        } catch {
          // A worker took it meanwhile (the job is locked): abort it there.
        }
      }
      await client.publish(cancelChannel(prefix, queueName), runId);
      return 'aborting';
    },

    async approve(runId, approvals) {
      const job = await jobOf(runId);
      if (job === undefined) throw noSuchRun(runId, queueName);
      const state = await job.getState();
      const pending: readonly PendingApproval[] =
        state === 'completed' && job.returnvalue?.stopReason === 'awaiting_approval'
          ? (job.returnvalue.pendingApprovals ?? [])
          : [];
      if (pending.length === 0) {
        throw new InvalidArgumentError({
          argument: 'runId',
          value: runId,
          message: `names a run that does not wait for approval (job state: ${state}${state === 'completed' ? `, stopReason: ${String(job.returnvalue?.stopReason)}` : ''}); approve a run whose result() has stopReason 'awaiting_approval'.`,
        });
      }
      const decisions: Record<string, ApprovalDecision> = {};
      applyDecisions(
        decisions,
        approvals,
        pending.map((approval) => approval.toolCallId),
      );
      // Two approve() calls on one pause would both merge into the data they read, and the last
      // write would drop the first call's decisions while the first call's requeue succeeded.
      const claim = approveClaimKey(prefix, queueName, runId, job.finishedOn ?? 0);
      if ((await (await redis()).set(claim, '1', 'EX', approveClaimSeconds, 'NX')) !== 'OK') {
        throw new InvalidArgumentError({
          argument: 'runId',
          value: runId,
          message:
            'names a run whose pause another approve() call has already taken; call result() to see where the run is now, and approve again if it pauses again.',
        });
      }
      try {
        await job.updateData({ ...job.data, approvals: { ...job.data.approvals, ...decisions } });
        await job.retry('completed');
      } catch (error) {
        await (await redis()).del(claim);
        throw error;
      }
    },

    async close() {
      // Only what was made: a queue never used has no connection yet.
      const [queue, listening, owned] = await Promise.all([
        started?.catch(() => undefined),
        events?.catch(() => undefined),
        client?.catch(() => undefined),
      ]);
      await Promise.all([
        queue?.queue.close(),
        listening?.close(),
        owned === undefined ? undefined : release(owned),
      ]);
    },
  };
}

/** The queue, once bullmq is loaded. */
interface StartedQueue {
  readonly bullmq: typeof Bullmq;
  readonly queue: Queue<RunJobData, QueuedRunResult, 'run'>;
}

/** The job's result when it has finished; `undefined` while it waits or runs; `'removed'` when it is gone. */
async function settled(
  bullmq: typeof Bullmq,
  queue: Queue<RunJobData, QueuedRunResult, 'run'>,
  job: Job<RunJobData, QueuedRunResult>,
): Promise<QueuedRunResult | 'removed' | undefined> {
  const state = await job.getState();
  if (state === 'unknown') return 'removed';
  if (state !== 'completed' && state !== 'failed') return undefined;
  // Read the job again: the copy in hand may predate its end (or an earlier end, before approve()).
  const ended = (await bullmq.Job.fromId(queue, job.id ?? '')) as
    Job<RunJobData, QueuedRunResult> | undefined;
  if (ended === undefined) return 'removed';
  if (state === 'completed') return ended.returnvalue;
  throw new RunJobFailedError({
    runId: ended.id ?? '',
    failedReason: ended.failedReason,
    attemptsMade: ended.attemptsMade,
  });
}

function noSuchRun(runId: string, queueName: string): InvalidArgumentError {
  return new InvalidArgumentError({
    argument: 'runId',
    value: runId,
    message: `names no run in the queue "${queueName}": enqueue it first (or it was removed).`,
  });
}

function checkConnection(options: { readonly connection?: unknown } | undefined): void {
  const connection = options?.connection;
  if (typeof connection !== 'object' || connection === null) {
    throw new InvalidArgumentError({
      argument: 'connection',
      value: connection,
      message: "must be an ioredis client or ioredis options, e.g. { host: '127.0.0.1', port: 6379 }.",
    });
  }
}

/** Checks a run id against BullMQ's rules for custom job ids. */
function checkJobId(runId: unknown, argument: string): asserts runId is string {
  if (
    typeof runId !== 'string' ||
    runId === '' ||
    runId.includes(':') ||
    `${parseInt(runId, 10)}` === runId
  ) {
    throw new InvalidArgumentError({
      argument,
      value: runId,
      message:
        'must be a non-empty string without ":" that is not a plain integer (it is the BullMQ job id), e.g. "order-42".',
    });
  }
}

/** The job data of an `enqueue` call, checked. */
function jobData(input: EnqueueRunInput): RunJobData {
  if (typeof input !== 'object' || input === null || !Array.isArray(input.messages)) {
    throw new InvalidArgumentError({
      argument: 'messages',
      value: (input as { messages?: unknown } | null)?.messages,
      message: "must be an array of chat messages, e.g. [{ role: 'user', content: 'hi' }].",
    });
  }
  const runId = input.runId ?? globalThis.crypto.randomUUID();
  checkJobId(runId, 'runId');
  if (input.systemPrompt !== undefined && typeof input.systemPrompt !== 'string') {
    throw new InvalidArgumentError({
      argument: 'systemPrompt',
      value: input.systemPrompt,
      message: 'must be a string.',
    });
  }
  if (input.maxTurns !== undefined && !(Number.isInteger(input.maxTurns) && input.maxTurns >= 1)) {
    throw new InvalidArgumentError({
      argument: 'maxTurns',
      value: input.maxTurns,
      message: 'must be an integer of at least 1.',
    });
  }
  if (input.context !== undefined) {
    if (typeof input.context !== 'object' || input.context === null || !isJson(input.context)) {
      throw new InvalidArgumentError({
        argument: 'context',
        value: input.context,
        message: 'must be a plain JSON object: it travels through Redis to the worker.',
      });
    }
  }
  return {
    runId,
    messages: input.messages,
    ...(input.systemPrompt === undefined ? {} : { systemPrompt: input.systemPrompt }),
    ...(input.context === undefined ? {} : { context: input.context }),
    ...(input.maxTurns === undefined ? {} : { maxTurns: input.maxTurns }),
  };
}

/** Whether `value` comes back the same from JSON: no `undefined`, functions, dates, classes or non-finite numbers. */
function isJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every(isJson);
}
