import { afterAll, beforeAll } from 'vitest';
import type { PostgresServer } from './postgres-server.js';
import { postgresUnavailableReason, startPostgresServer } from './postgres-server.js';
import { serviceUnavailable } from './service-availability.js';

/** What {@link usePostgresServer} gives a test file; read the fields inside tests. */
export interface PostgresFixture {
  /** The running server; throws when there is none (check `skipReason` first). */
  readonly server: PostgresServer;
  /** Why the tests skip: no PostgreSQL here (outside CI only; under `CI=true` the setup fails). */
  readonly skipReason: string | undefined;
}

/**
 * Starts a real PostgreSQL for the test file (before all its tests) and stops it after. When none
 * can be had, tests skip with the printed reason outside CI, and the file fails under `CI=true`.
 */
export function usePostgresServer(): PostgresFixture {
  let server: PostgresServer | undefined;
  let skipReason: string | undefined;
  beforeAll(async () => {
    const reason = postgresUnavailableReason();
    if (reason !== undefined) {
      skipReason = serviceUnavailable('PostgreSQL', reason);
      return;
    }
    try {
      server = await startPostgresServer();
    } catch (error) {
      skipReason = serviceUnavailable('PostgreSQL', (error as Error).message);
    }
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);
  return {
    get server() {
      if (server === undefined) throw new Error(`no PostgreSQL server: ${skipReason ?? 'not started yet'}`);
      return server;
    },
    get skipReason() {
      return skipReason;
    },
  };
}
