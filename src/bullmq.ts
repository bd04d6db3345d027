// `tool-orchestrator/bullmq` (Node only): runs on a BullMQ queue across worker processes, checkpointed
// in Redis. Loads the optional peers `bullmq` and `ioredis`.
export { createRunQueue } from './bullmq/run-queue.js';
export type {
  CancelOutcome,
  EnqueueRunInput,
  RunQueue,
  RunQueueOptions,
  RunResultOptions,
} from './bullmq/run-queue.js';
export { createRunWorker } from './bullmq/run-worker.js';
export type { RunWorker, RunWorkerOptions } from './bullmq/run-worker.js';
export { executeRunJob } from './bullmq/run-job.js';
export type {
  ExecuteRunJobOptions,
  OrchestratorFactory,
  QueuedRunResult,
  RunJob,
  RunJobData,
} from './bullmq/run-job.js';
export { RedisCheckpointStore } from './bullmq/redis-checkpoint-store.js';
export type { RedisCheckpointStoreOptions } from './bullmq/redis-checkpoint-store.js';
export type { RedisClient, RedisConnection, RedisConnectionOptions } from './bullmq/redis-connection.js';
export { RunJobFailedError } from './bullmq/run-job-failed-error.js';
export type { RunJobFailedErrorOptions } from './bullmq/run-job-failed-error.js';
