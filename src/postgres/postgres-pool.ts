import { optionalDependency } from '../shared/optional-dependency.js';

/** The result of a query, as `pg` returns it. */
export interface PostgresQueryResult {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly rows: any[];
  readonly rowCount: number | null;
}

/** A query with `$1` parameters; with a `name`, a prepared statement the connection parses once. */
export interface PostgresQueryConfig {
  readonly text: string;
  readonly values?: unknown[];
  readonly name?: string;
}

/** What the store needs of a `pg` client: `query` with `$1` parameters, by text or config. */
export interface PostgresQueryable {
  query(textOrConfig: string | PostgresQueryConfig, values?: unknown[]): Promise<PostgresQueryResult>;
}

/** A client checked out of a pool, as `pg`'s `PoolClient`. */
export interface PostgresPoolClient extends PostgresQueryable {
  release(error?: Error | boolean): void;
}

/**
 * What the store needs of a connection pool: a `pg` `Pool` fits (the store names no `pg` type, so
 * your app needs no `@types/pg` for it).
 */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresPoolClient>;
  end(): Promise<void>;
}

/** Loads `pg`, an optional peer dependency, on first use; a `MissingDependencyError` says how to install it. */
const loadPg = optionalDependency({
  packageName: 'pg',
  versionRange: '^8',
  installCommand: 'npm install pg',
  neededFor: 'PostgresCheckpointStore with a connectionString',
  load: () => import('pg'),
});

/** A `pg` pool for `connectionString`. */
export async function createPool(connectionString: string): Promise<PostgresPool> {
  const { Pool } = await loadPg();
  return new Pool({ connectionString }) as unknown as PostgresPool;
}

/**
 * Runs `work` in a transaction on a client of `pool`: `BEGIN`, then `COMMIT` when it resolves or
 * `ROLLBACK` when it throws; the client goes back to the pool either way (destroyed when even the
 * rollback failed, so a broken connection is not reused).
 */
export async function inTransaction<Result>(
  pool: PostgresPool,
  work: (client: PostgresPoolClient) => Promise<Result>,
): Promise<Result> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw error;
  } finally {
    client.release(broken ?? false);
  }
}
