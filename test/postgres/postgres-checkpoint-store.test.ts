import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { PostgresCheckpointStore, checkpointTablesSql, migrate } from '../../src/postgres.js';
import { describeCheckpointStoreContract } from '../durable/checkpoint-store-contract.js';
import { usePostgresServer } from '../support/postgres-fixture.js';
import { growingStates, makeRunState } from '../support/run-states.js';

const postgres = usePostgresServer();
let pool: pg.Pool;
let tableCount = 0;

beforeAll(() => {
  if (postgres.skipReason === undefined) {
    pool = new pg.Pool({ connectionString: postgres.server.connectionString, max: 8 });
  }
});
afterAll(async () => {
  await pool?.end();
});

/** A table name of its own for each test, so tests share the server but not the data. */
const freshTable = (): string => `checkpoints_${++tableCount}`;

describeCheckpointStoreContract(
  'PostgresCheckpointStore',
  async () => {
    const tableName = freshTable();
    return {
      store: new PostgresCheckpointStore({ pool, tableName }),
      sibling: () => new PostgresCheckpointStore({ pool, tableName }),
      cleanup: async () => undefined,
    };
  },
  () => postgres.skipReason,
);

describe('PostgresCheckpointStore tables', () => {
  it('writes one run row and one row per message, appending new messages and never rewriting old ones', async (context) => {
    if (postgres.skipReason !== undefined) context.skip(postgres.skipReason);
    const tableName = freshTable();
    const store = new PostgresCheckpointStore({ pool, tableName });
    const states = growingStates('rows', 30);
    await store.save('rows', states[0]!);
    const firstRows = await rowVersions(tableName);
    for (const state of states.slice(1)) await store.save(state.runId, state);
    const lastRows = await rowVersions(tableName);
    expect(lastRows.size).toBe(states.at(-1)!.messages.length);
    // Rows written by the first save are the same row versions (same xmin): never rewritten.
    for (const [position, xmin] of firstRows) expect(lastRows.get(position), `row ${position}`).toBe(xmin);
    const { rows } = await pool.query(`SELECT run_id, step, message_count, stop_reason FROM ${tableName}`);
    expect(rows).toEqual([{ run_id: 'rows', step: '60', message_count: 62, stop_reason: null }]);
  });

  it('rewrites from the first changed message when a hook replaced the transcript, keeping the rows before it', async (context) => {
    if (postgres.skipReason !== undefined) context.skip(postgres.skipReason);
    const tableName = freshTable();
    const store = new PostgresCheckpointStore({ pool, tableName });
    const states = growingStates('edited', 10);
    for (const state of states) await store.save(state.runId, state);
    const before = await rowVersions(tableName);
    const last = states.at(-1)!;
    const edited = last.messages.map((message, index) =>
      index === 15 ? { ...message, content: 'masked' } : message,
    ) as typeof last.messages;
    await store.save('edited', { ...last, step: last.step + 1, messages: edited });
    const after = await rowVersions(tableName);
    for (let position = 0; position < 15; position++) expect(after.get(position)).toBe(before.get(position));
    for (let position = 15; position < edited.length; position++)
      expect(after.get(position)).not.toBe(before.get(position));
    expect((await store.load('edited'))?.messages).toEqual(edited);
  });

  it('stores the stop reason in its own column, to list the runs awaiting approval', async (context) => {
    if (postgres.skipReason !== undefined) context.skip(postgres.skipReason);
    const tableName = freshTable();
    const store = new PostgresCheckpointStore({ pool, tableName });
    await store.save('waiting', makeRunState({ runId: 'waiting', stopReason: 'awaiting_approval' }));
    await store.save('running', makeRunState({ runId: 'running' }));
    const { rows } = await pool.query(
      `SELECT run_id FROM ${tableName} WHERE stop_reason = 'awaiting_approval'`,
    );
    expect(rows).toEqual([{ run_id: 'waiting' }]);
  });

  it('migrate() and checkpointTablesSql() make the tables for a store with createTables: false, also in a schema', async (context) => {
    if (postgres.skipReason !== undefined) context.skip(postgres.skipReason);
    await pool.query('CREATE SCHEMA IF NOT EXISTS agents');
    const viaMigrate = `agents.${freshTable()}`;
    // Several processes starting at once: the advisory lock keeps CREATE TABLE IF NOT EXISTS from racing.
    const pools = Array.from(
      { length: 4 },
      () => new pg.Pool({ connectionString: postgres.server.connectionString, max: 1 }),
    );
    try {
      await Promise.all(pools.map((each) => migrate(each, { tableName: viaMigrate })));
    } finally {
      await Promise.all(pools.map((each) => each.end()));
    }
    const viaSql = freshTable();
    await pool.query(checkpointTablesSql({ tableName: viaSql }));
    for (const tableName of [viaMigrate, viaSql]) {
      const store = new PostgresCheckpointStore({ pool, tableName, createTables: false });
      const state = makeRunState({ runId: 'migrated' });
      await store.save('migrated', state);
      expect(await store.load('migrated')).toEqual(state);
    }
    const missing = new PostgresCheckpointStore({ pool, tableName: freshTable(), createTables: false });
    await expect(missing.load('x')).rejects.toThrow(/relation .* does not exist/);
  });

  it('connects from a connection string, and close() ends its own pool only', async (context) => {
    if (postgres.skipReason !== undefined) context.skip(postgres.skipReason);
    const tableName = freshTable();
    const store = new PostgresCheckpointStore({
      connectionString: postgres.server.connectionString,
      tableName,
    });
    const state = makeRunState({ runId: 'own-pool' });
    await store.save('own-pool', state);
    await store.close();
    await store.close();
    expect(await new PostgresCheckpointStore({ pool, tableName }).load('own-pool')).toEqual(state);
    const borrowing = new PostgresCheckpointStore({ pool, tableName });
    await borrowing.close();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('names a missing connection and a bad table name', () => {
    expect(() => new PostgresCheckpointStore({} as { pool: pg.Pool })).toThrow(InvalidArgumentError);
    expect(() => new PostgresCheckpointStore({} as { pool: pg.Pool })).toThrow(
      /needs a pool .* or a connection string/,
    );
    expect(() => new PostgresCheckpointStore({ pool: {} as pg.Pool })).toThrow(
      /Invalid pool \(\{\}\): must be a pg Pool/,
    );
    expect(
      () =>
        new PostgresCheckpointStore({ connectionString: 'postgres://x', tableName: 'runs; DROP TABLE x' }),
    ).toThrow(/Invalid tableName \("runs; DROP TABLE x"\)/);
  });
});

/** The row version (xmin: the transaction that wrote it) of every message row, by position. */
async function rowVersions(tableName: string): Promise<Map<number, string>> {
  const { rows } = await pool.query<{ position: number; xmin: string }>(
    `SELECT position, xmin::text AS xmin FROM ${tableName}_messages ORDER BY position`,
  );
  return new Map(rows.map((row) => [row.position, row.xmin]));
}
