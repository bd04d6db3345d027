import type { CheckpointStore } from '../durable/checkpoint-store.js';
import { checkRunId, checkSaveArguments } from '../durable/check-save-arguments.js';
import type { RunState } from '../durable/run-state.js';
import { TrackerCache } from '../durable/tracker-cache.js';
import type { PreparedTranscript } from '../durable/transcript-tracker.js';
import { validateRunState } from '../durable/validate-run-state.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ChatMessage } from '../model/messages.js';
import { emptyHash, hashText } from '../shared/hash-text.js';
import type { CheckpointTables, CheckpointTablesOptions } from './checkpoint-tables.js';
import { checkpointTables, migrate } from './checkpoint-tables.js';
import type { PostgresPool, PostgresPoolClient } from './postgres-pool.js';
import { createPool, inTransaction } from './postgres-pool.js';
import { damagedTranscript } from '../durable/damaged-transcript.js';

/** Options of {@link PostgresCheckpointStore}: a pool of yours, or a connection string. */
export type PostgresCheckpointStoreOptions = PostgresCheckpointStoreCommonOptions &
  (
    | {
        /** A `pg` `Pool` (or anything with its `query` and `connect`); the store never ends it. */
        readonly pool: PostgresPool;
        readonly connectionString?: never;
      }
    | {
        /** Where to connect, e.g. `postgres://user:password@host:5432/db`; the store makes a pool and `close()` ends it. */
        readonly connectionString: string;
        readonly pool?: never;
      }
  );

/** The options of {@link PostgresCheckpointStore} besides the connection. */
export interface PostgresCheckpointStoreCommonOptions extends CheckpointTablesOptions {
  /** Create the tables on first use when they do not exist (see `migrate`). @default true */
  readonly createTables?: boolean;
}

interface RunRow {
  readonly step: string | number;
  readonly message_count: number;
  readonly transcript_hash: string;
}

/**
 * Keeps checkpoints in PostgreSQL (the `pg` client, an optional peer dependency). Two tables, made
 * on first use or by `migrate`: one row per run (its newest state without the messages) and one
 * row per message. A save writes the new messages only: the messages table is appended to while
 * the transcript grows, and rewritten from the first changed message when a hook replaced it.
 *
 * Each save is one transaction holding the run's row lock, and writes only when its `step` is
 * above the stored one: concurrent saves of a run, from any number of processes, keep the newest.
 *
 * @example
 * import pg from 'pg';
 * import { PostgresCheckpointStore } from 'tool-orchestrator/postgres';
 * const store = new PostgresCheckpointStore({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 */
export class PostgresCheckpointStore implements CheckpointStore {
  readonly #tablesOptions: CheckpointTablesOptions;
  readonly #createTables: boolean;
  readonly #ownPool: boolean;
  readonly #trackers = new TrackerCache();
  readonly #statements: ReturnType<typeof statementsFor>;
  readonly #connectionString: string | undefined;
  #pool: Promise<PostgresPool> | undefined;
  #ready: Promise<PostgresPool> | undefined;

  /** @throws {InvalidArgumentError} when neither a pool nor a connection string is given, or `tableName` is not a plain name. */
  constructor(options: PostgresCheckpointStoreOptions) {
    const { pool, connectionString } = (options ?? {}) as { pool?: unknown; connectionString?: unknown };
    if (pool !== undefined) {
      if (typeof (pool as PostgresPool | null)?.connect !== 'function') {
        throw new InvalidArgumentError({
          argument: 'pool',
          value: pool,
          message: 'must be a pg Pool (an object with query() and connect()).',
        });
      }
      this.#pool = Promise.resolve(pool as PostgresPool);
      this.#ownPool = false;
    } else if (typeof connectionString === 'string' && connectionString !== '') {
      this.#ownPool = true;
    } else {
      throw new InvalidArgumentError({
        argument: 'options',
        value: options,
        message:
          'needs a pool ({ pool: new pg.Pool(...) }) or a connection string ({ connectionString: "postgres://..." }).',
      });
    }
    this.#tablesOptions = options.tableName === undefined ? {} : { tableName: options.tableName };
    this.#statements = statementsFor(checkpointTables(this.#tablesOptions));
    this.#createTables = options.createTables ?? true;
    this.#connectionString = typeof connectionString === 'string' ? connectionString : undefined;
  }

  /** Stores `state` unless a state with a higher or equal `step` is stored already. */
  async save(runId: string, state: RunState): Promise<void> {
    checkSaveArguments(runId, state);
    const pool = await this.#connect();
    const prepared = this.#trackers.get(runId).prepare(state.messages);
    const saved = await inTransaction(pool, (client) => this.#write(client, state, prepared));
    if (saved) {
      this.#trackers.remember(runId, prepared.messages, prepared.hashes, state.step, state.result !== null);
    }
  }

  /** The newest state of `runId`; `undefined` when none is stored. */
  async load(runId: string): Promise<RunState | undefined> {
    checkRunId(runId);
    const pool = await this.#connect();
    // One statement, so the run row and its messages come from one snapshot.
    const { rows } = await pool.query({ ...this.#statements.load, values: [runId] });
    const row = rows[0] as
      { state: string; message_count: number; transcript_hash: string; messages: string[] } | undefined;
    if (row === undefined) return undefined;
    const damaged = (message: string, value: unknown): never => damagedTranscript(runId, message, value);
    if (row.messages.length !== row.message_count) {
      damaged(
        `the run row counts ${row.message_count} messages, the messages table holds ${row.messages.length}`,
        row.messages.length,
      );
    }
    const parsed: ChatMessage[] = [];
    const hashes: string[] = [];
    let previous = emptyHash;
    for (const json of row.messages) {
      previous = hashText(json, previous);
      hashes.push(previous);
      parsed.push(JSON.parse(json) as ChatMessage);
    }
    if (previous !== row.transcript_hash)
      damaged('the stored messages do not match the transcript hash of the run row', previous);
    const state = validateRunState({ ...(JSON.parse(row.state) as object), messages: parsed });
    this.#trackers.remember(runId, parsed, hashes, state.step, state.result !== null);
    return state;
  }

  /** Removes the run's row and its messages. */
  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    const pool = await this.#connect();
    this.#trackers.forget(runId);
    await pool.query({ ...this.#statements.delete, values: [runId] });
  }

  /** Ends the pool the store made from a `connectionString`; a pool you gave is left open. */
  async close(): Promise<void> {
    if (!this.#ownPool || this.#pool === undefined) return;
    const pool = this.#pool;
    this.#pool = undefined;
    this.#ready = undefined;
    await (await pool).end();
  }

  /** The pool, with the tables made (once per store) unless `createTables: false`. */
  #connect(): Promise<PostgresPool> {
    this.#ready ??= (async () => {
      this.#pool ??= createPool(this.#connectionString!);
      const pool = await this.#pool;
      if (this.#createTables) await migrate(pool, this.#tablesOptions);
      return pool;
    })();
    this.#ready.catch(() => {
      this.#ready = undefined; // Try again on the next call (the database may be back).
    });
    return this.#ready;
  }

  /** Writes `state` in the open transaction; false when a state with a higher or equal step is stored. */
  async #write(client: PostgresPoolClient, state: RunState, prepared: PreparedTranscript): Promise<boolean> {
    const statements = this.#statements;
    const { messages: _messages, ...fields } = state;
    const runValues = [
      state.runId,
      state.step,
      JSON.stringify(fields),
      prepared.messages.length,
      prepared.stored.hash,
      state.stopReason,
    ];
    let row = await this.#lockRun(client, state.runId);
    if (row === undefined) {
      // A new run: insert its row, unless another save inserted it meanwhile.
      const [positions, texts] = messageColumns(prepared, 0);
      const { rows } = await client.query({
        ...statements.insertRun,
        values: [...runValues, positions, texts],
      });
      if (rows.length === 1) return true;
      row = await this.#lockRun(client, state.runId);
      if (row === undefined) return false; // Deleted meanwhile.
    }
    if (Number(row.step) >= state.step) return false;
    const plan = prepared.planWrite({ count: row.message_count, hash: row.transcript_hash });
    if (plan.type === 'rewrite') {
      await client.query({ ...statements.dropMessages, values: [state.runId, plan.from] });
    }
    const [positions, texts] = messageColumns(prepared, plan.from);
    await client.query({ ...statements.updateRun, values: [...runValues, positions, texts] });
    return true;
  }

  async #lockRun(client: PostgresPoolClient, runId: string): Promise<RunRow | undefined> {
    const { rows } = await client.query({ ...this.#statements.lockRun, values: [runId] });
    return rows[0] as RunRow | undefined;
  }
}

/** A named statement: each connection parses it once, and later runs send only the values. */
interface Statement {
  readonly name: string;
  readonly text: string;
}

/** The store's statements on its tables. */
function statementsFor({
  runs,
  messages,
}: CheckpointTables): Record<
  'load' | 'delete' | 'lockRun' | 'insertRun' | 'updateRun' | 'dropMessages',
  Statement
> {
  const addMessages = `INSERT INTO ${messages} (run_id, position, message)
    SELECT $1, position, message::json FROM unnest($7::integer[], $8::text[]) AS added(position, message)`;
  const texts = {
    load: `SELECT r.state::text AS state, r.message_count, r.transcript_hash,
        (SELECT coalesce(array_agg(m.message::text ORDER BY m.position), '{}')
           FROM ${messages} m WHERE m.run_id = r.run_id) AS messages
      FROM ${runs} r WHERE r.run_id = $1`,
    delete: `DELETE FROM ${runs} WHERE run_id = $1`,
    lockRun: `SELECT step, message_count, transcript_hash FROM ${runs} WHERE run_id = $1 FOR UPDATE`,
    // The messages go in only when the row did: a CTE that inserts nothing adds nothing.
    insertRun: `WITH run AS (
        INSERT INTO ${runs} (run_id, step, state, message_count, transcript_hash, stop_reason)
        VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (run_id) DO NOTHING RETURNING run_id
      ), added AS (
        INSERT INTO ${messages} (run_id, position, message)
        SELECT run.run_id, position, message::json
        FROM run, unnest($7::integer[], $8::text[]) AS added(position, message)
      )
      SELECT run_id FROM run`,
    updateRun: `WITH added AS (${addMessages})
      UPDATE ${runs} SET step = $2, state = $3, message_count = $4, transcript_hash = $5, stop_reason = $6,
        updated_at = now()
      WHERE run_id = $1`,
    dropMessages: `DELETE FROM ${messages} WHERE run_id = $1 AND position >= $2`,
  };
  const named = (text: string): Statement => ({ name: `tool-orchestrator-${hashText(text)}`, text });
  return {
    load: named(texts.load),
    delete: named(texts.delete),
    lockRun: named(texts.lockRun),
    insertRun: named(texts.insertRun),
    updateRun: named(texts.updateRun),
    dropMessages: named(texts.dropMessages),
  };
}

/** The positions and JSON texts of the messages from `from` on. */
function messageColumns(prepared: PreparedTranscript, from: number): [number[], string[]] {
  const positions: number[] = [];
  const texts: string[] = [];
  for (let index = from; index < prepared.messages.length; index++) {
    positions.push(index);
    texts.push(prepared.json(index));
  }
  return [positions, texts];
}
