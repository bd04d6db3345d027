import type * as Bullmq from 'bullmq';
import type * as Ioredis from 'ioredis';
import { optionalDependency } from '../shared/optional-dependency.js';

const installCommand = 'npm install bullmq ioredis';

/** Loads `bullmq`, an optional peer dependency, on first use; a `MissingDependencyError` says how to install it. */
export const loadBullmq: () => Promise<typeof Bullmq> = optionalDependency({
  packageName: 'bullmq',
  versionRange: '^6',
  installCommand,
  neededFor: 'The BullMQ scale-out (createRunQueue, createRunWorker)',
  load: () => import('bullmq'),
});

/** Loads `ioredis`, an optional peer dependency, on first use; a `MissingDependencyError` says how to install it. */
export const loadIoredis: () => Promise<typeof Ioredis> = optionalDependency({
  packageName: 'ioredis',
  versionRange: '^5',
  installCommand,
  neededFor: 'The BullMQ scale-out (createRunQueue, createRunWorker, RedisCheckpointStore)',
  load: () => import('ioredis'),
});
