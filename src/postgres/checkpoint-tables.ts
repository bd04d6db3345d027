import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { PostgresPool } from './postgres-pool.js';
import { inTransaction } from './postgres-pool.js';

/** Options naming the store's tables. */
export interface CheckpointTablesOptions {
  /**
   * The table of runs, optionally schema-qualified (`'agents.checkpoints'`); the messages go to
   * the table of the same name with `_messages` added. @default 'tool_orchestrator_checkpoints'
   */
  readonly tableName?: string;
}

/** The quoted names of the two tables. */
export interface CheckpointTables {
  readonly runs: string;
  readonly messages: string;
  /** The unquoted runs table name, for the migration's lock key. */
  readonly name: string;
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,53}$/;

/**
 * The table names for `tableName`, quoted for SQL.
 *
 * @throws {InvalidArgumentError} when it is not one or two plain identifiers.
 */
export function checkpointTables(options: CheckpointTablesOptions = {}): CheckpointTables {
  const name = options.tableName ?? 'tool_orchestrator_checkpoints';
  const parts = typeof name === 'string' ? name.split('.') : [];
  if (parts.length < 1 || parts.length > 2 || !parts.every((part) => identifier.test(part))) {
    throw new InvalidArgumentError({
      argument: 'tableName',
      value: name,
      message:
        'must be a table name of letters, digits and "_" (at most 54 characters), optionally after a schema name and a dot, e.g. "agents.checkpoints".',
    });
  }
  const quote = (part: string): string => `"${part}"`;
  const table = parts.at(-1)!;
  const schema = parts.length === 2 ? `${quote(parts[0]!)}.` : '';
  return { runs: `${schema}${quote(table)}`, messages: `${schema}${quote(`${table}_messages`)}`, name };
}

/**
 * The SQL that creates the store's two tables when they do not exist, for a migration tool:
 *
 * - the runs table: one row per run, its newest `step`, the state without its messages (`json`),
 *   the message count and the running hash of the transcript, the stop reason (`null` while the run
 *   goes on, `'awaiting_approval'` while it waits) and when it was last saved;
 * - the messages table: one row per message, keyed by run and position, removed with its run.
 *
 * `json` (not `jsonb`) keeps each message's text exactly as written, `\u0000` included.
 */
export function checkpointTablesSql(options: CheckpointTablesOptions = {}): string {
  const { runs, messages } = checkpointTables(options);
  return `CREATE TABLE IF NOT EXISTS ${runs} (
  run_id text PRIMARY KEY,
  step bigint NOT NULL,
  state json NOT NULL,
  message_count integer NOT NULL,
  transcript_hash text NOT NULL,
  stop_reason text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS ${messages} (
  run_id text NOT NULL REFERENCES ${runs} (run_id) ON DELETE CASCADE,
  position integer NOT NULL,
  message json NOT NULL,
  PRIMARY KEY (run_id, position)
);
`;
}

/**
 * Creates the store's tables when they do not exist ({@link checkpointTablesSql}), holding a
 * transaction-level advisory lock so processes starting at once do not race. Safe to run on
 * every start; `PostgresCheckpointStore` runs it on first use unless `createTables: false`.
 */
export async function migrate(pool: PostgresPool, options: CheckpointTablesOptions = {}): Promise<void> {
  const tables = checkpointTables(options);
  const sql = checkpointTablesSql(options);
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tool-orchestrator:${tables.name}`]);
    for (const statement of sql.split(';\n').filter((text) => text.trim() !== '')) {
      await client.query(statement);
    }
  });
}
