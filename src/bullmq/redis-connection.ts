import type { Redis, RedisOptions } from 'ioredis';
import { loadIoredis } from './load-bullmq.js';

// `ioredis` is an optional peer: the public types below name none of its types, so the
// declarations of `tool-orchestrator/bullmq` type-check without it. Its `Redis` and
// `RedisOptions` fit them.

/** An `ioredis` client (an instance of its `Redis` class), declared by a few of its members. */
export interface RedisClient {
  readonly status: string;
  duplicate(): RedisClient;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** `ioredis` options (its `RedisOptions`): `{ host, port, password, tls, ... }`. */
export interface RedisConnectionOptions {
  readonly host?: string;
  readonly port?: number;
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  /** Any other option of `ioredis`; `any`, so that a value typed as its `RedisOptions` fits. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly [option: string]: any;
}

/**
 * Where Redis is: an `ioredis` client of yours (BullMQ needs `maxRetriesPerRequest: null` on it),
 * or `ioredis` options (`{ host, port, password, tls, ... }`) from which the queue, the worker and
 * the store make their own clients and close them again.
 */
export type RedisConnection = RedisClient | RedisConnectionOptions;

/** A client for our own commands, and whether we made it (then we close it). */
export interface OwnedClient {
  readonly client: Redis;
  readonly owned: boolean;
}

/**
 * A client on `connection`: yours as it is, or a new one from options. Commands wait while Redis
 * is away (`maxRetriesPerRequest: null`) and go on when it is back, as BullMQ's own do.
 *
 * @throws {MissingDependencyError} when `ioredis` is not installed.
 */
export async function clientFor(connection: RedisConnection): Promise<OwnedClient> {
  const { Redis } = await loadIoredis();
  if (connection instanceof Redis) return { client: connection, owned: false };
  return { client: new Redis({ maxRetriesPerRequest: null, ...(connection as RedisOptions) }), owned: true };
}

/**
 * A new client to the same server (for a subscriber, which cannot send other commands).
 *
 * @throws {MissingDependencyError} when `ioredis` is not installed.
 */
export async function duplicateOf(connection: RedisConnection): Promise<Redis> {
  const { Redis } = await loadIoredis();
  return connection instanceof Redis
    ? connection.duplicate()
    : new Redis({ maxRetriesPerRequest: null, ...(connection as RedisOptions) });
}

/** Closes a client we made; yours is left open. */
export async function release({ client, owned }: OwnedClient): Promise<void> {
  if (owned) await closeClient(client);
}

/** `QUIT` when connected, else a plain disconnect (a quit would wait for a server that is away). */
export async function closeClient(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
  } else {
    client.disconnect();
  }
}
