import { afterAll, beforeAll } from 'vitest';
import type { RedisServer, StartRedisServerOptions } from './redis-server.js';
import { redisUnavailableReason, startRedisServer } from './redis-server.js';
import { serviceUnavailable } from './service-availability.js';

/** What {@link useRedisServer} gives a test file; read the fields inside tests. */
export interface RedisFixture {
  /** The running server; throws when there is none (check `skipReason` first). */
  readonly server: RedisServer;
  /** Why the tests skip: no Redis here (outside CI only; under `CI=true` the setup fails). */
  readonly skipReason: string | undefined;
}

/**
 * Starts a real Redis for the test file (before all its tests) and stops it after. When none can
 * be had, tests skip with the printed reason outside CI, and the file fails under `CI=true`.
 */
export function useRedisServer(options: StartRedisServerOptions = {}): RedisFixture {
  let server: RedisServer | undefined;
  let skipReason: string | undefined;
  beforeAll(async () => {
    const reason = redisUnavailableReason();
    if (reason !== undefined) {
      skipReason = serviceUnavailable('Redis', reason);
      return;
    }
    try {
      server = await startRedisServer(options);
    } catch (error) {
      skipReason = serviceUnavailable('Redis', (error as Error).message);
    }
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  }, 15_000);
  return {
    get server() {
      if (server === undefined) throw new Error(`no Redis server: ${skipReason ?? 'not started yet'}`);
      return server;
    },
    get skipReason() {
      return skipReason;
    },
  };
}
