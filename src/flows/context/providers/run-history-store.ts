/** One past run, as kept by a {@link RunHistoryStore}. */
export interface RunRecord {
  readonly id: string;
  /** ISO 8601 time the run started. */
  readonly timestamp: string;
  readonly task: string;
  /** e.g. `'success'`, `'failed'`. */
  readonly outcome?: string;
  /** What happened, in a few sentences. */
  readonly summary?: string;
  readonly [key: string]: unknown;
}

/** Where past runs are kept for the `past_runs` provider; plug in a database or use `JsonLinesRunStore`. */
export interface RunHistoryStore {
  append(record: RunRecord): Promise<void>;
  /** The most recent `limit` runs, newest first. */
  recent(limit: number): Promise<RunRecord[]>;
}
