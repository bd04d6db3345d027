// `tool-orchestrator/postgres` (Node only): a checkpoint store on PostgreSQL, on the optional peer `pg`.
export { PostgresCheckpointStore } from './postgres/postgres-checkpoint-store.js';
export type {
  PostgresCheckpointStoreCommonOptions,
  PostgresCheckpointStoreOptions,
} from './postgres/postgres-checkpoint-store.js';
export { checkpointTablesSql, migrate } from './postgres/checkpoint-tables.js';
export type { CheckpointTablesOptions } from './postgres/checkpoint-tables.js';
export type {
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryable,
  PostgresQueryConfig,
  PostgresQueryResult,
} from './postgres/postgres-pool.js';
