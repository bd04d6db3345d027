/**
 * What a checkpoint store costs a run, side by side in one process: S3 (200 turns, one 2 KB result
 * each) with no store, with a store that keeps nothing (what taking the snapshots costs the loop),
 * with `MemoryCheckpointStore`, with `FileCheckpointStore` (fsync on, the
 * default, and off) and, when PostgreSQL and Redis can be started here, with `PostgresCheckpointStore`
 * and `RedisCheckpointStore`. The
 * variants alternate run by run, the order rotating each cycle; each cycle's run times give paired
 * ratios against no store. A store saves twice per turn (after the model's response and after the
 * tool result), so "ms per step" is the extra time per run over 2 x 200 steps. Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCheckpointStore, MemoryCheckpointStore } from 'tool-orchestrator';
import type { CheckpointStore } from 'tool-orchestrator';
import { RedisCheckpointStore } from 'tool-orchestrator/bullmq';
import { PostgresCheckpointStore } from 'tool-orchestrator/postgres';
import { postgresUnavailableReason, startPostgresServer } from '../../../test/support/postgres-server.js';
import type { PostgresServer } from '../../../test/support/postgres-server.js';
import { redisUnavailableReason, startRedisServer } from '../../../test/support/redis-server.js';
import type { RedisServer } from '../../../test/support/redis-server.js';
import { median } from '../measure.js';
import { prepareOurs } from './libraries/ours.js';
import { Script, buildScenario } from './scenarios.js';
import type { PreparedRun } from './scenarios.js';
import { verifiedRun } from './verified-run.js';

export interface CheckpointChildOptions {
  readonly warmupMs: number;
  readonly timedMs: number;
  readonly minCycles: number;
  /** Only the variants whose names start with one of these (no store always runs); all when absent. */
  readonly variants?: readonly string[];
}

export interface CheckpointVariantResult {
  readonly variant: string;
  readonly microsecondsPerTurn: number;
  /** Median over cycles of this variant's run time over the no-store run of the same cycle. */
  readonly ratioToNoStore: number;
  /** Median over cycles of (this run - the no-store run) / steps saved, in milliseconds. */
  readonly millisecondsPerStep: number;
  /** Median over every timed save of the time from `save()` to its promise resolving, in milliseconds. */
  readonly medianSaveMs: number | undefined;
}

export interface CheckpointChildResult {
  readonly ok: boolean;
  readonly failure?: string;
  readonly cycles?: number;
  readonly variants?: CheckpointVariantResult[];
  /** Why the Postgres variant did not run, when it did not. */
  readonly postgresSkipped?: string;
  /** Why the Redis variant did not run, when it did not. */
  readonly redisSkipped?: string;
}

/** Remembers the runs a store saved, so each can be deleted after it is timed (folders would pile up). */
class Forgetful implements CheckpointStore {
  readonly saved = new Set<string>();
  /** How long each save took, while `timing`. */
  readonly saveTimes: number[] = [];
  timing = false;
  constructor(readonly store: CheckpointStore) {}
  save(runId: string, state: Parameters<CheckpointStore['save']>[1]): Promise<void> {
    this.saved.add(runId);
    if (!this.timing) return this.store.save(runId, state);
    const started = performance.now();
    return this.store.save(runId, state).then(() => {
      this.saveTimes.push(performance.now() - started);
    });
  }
  load(runId: string): ReturnType<CheckpointStore['load']> {
    return this.store.load(runId);
  }
  delete(runId: string): Promise<void> {
    return this.store.delete(runId);
  }
  async forget(): Promise<void> {
    for (const runId of this.saved) await this.store.delete(runId);
    this.saved.clear();
  }
}

/** Not a store: appends 1.6 KB and flushes it per save, the floor of any durable file store. */
class AppendOnly implements CheckpointStore {
  #handle: FileHandle | undefined;
  #offset = 0;
  readonly #bytes = Buffer.alloc(1600, 'x');
  constructor(readonly path: string) {}
  async save(): Promise<void> {
    this.#handle ??= await open(this.path, 'w');
    await this.#handle.write(this.#bytes, 0, this.#bytes.length, this.#offset);
    this.#offset += this.#bytes.length;
    await this.#handle.datasync();
  }
  async load(): Promise<undefined> {
    return undefined;
  }
  async delete(): Promise<void> {
    await this.#handle?.truncate(0);
    this.#offset = 0;
  }
  async close(): Promise<void> {
    await this.#handle?.close();
  }
}

interface Contender {
  readonly store: Forgetful | undefined;
  readonly name: string;
  readonly script: Script;
  readonly run: PreparedRun;
  readonly durations: number[];
}

const noStore = 'no store';

async function measure(options: CheckpointChildOptions): Promise<CheckpointChildResult> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-checkpoints-'));
  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  const wanted = (name: string): boolean =>
    options.variants === undefined || options.variants.some((prefix) => name.startsWith(prefix));
  const postgresSkipped = wanted('PostgresCheckpointStore') ? postgresUnavailableReason() : 'not asked for';
  const redisSkipped = wanted('RedisCheckpointStore') ? redisUnavailableReason() : 'not asked for';
  const stores = (
    [
      [noStore, undefined],
      // What one durable write per save costs on this disk, whatever the store: 1.6 KB (what the
      // file store appends per S3 save, on average) appended to one open file, then fdatasync.
      ['append + fdatasync (the disk alone)', new AppendOnly(join(folder, 'floor.log'))],
      // Keeps nothing: what taking the snapshots costs the loop, whatever the store.
      ['No-op store', { save: async () => {}, load: async () => undefined, delete: async () => {} }],
      ['MemoryCheckpointStore', new MemoryCheckpointStore()],
      ['FileCheckpointStore (fsync)', new FileCheckpointStore({ dir: join(folder, 'sync') })],
      [
        'FileCheckpointStore (sync: false)',
        new FileCheckpointStore({ dir: join(folder, 'nosync'), sync: false }),
      ],
    ] as [string, CheckpointStore | undefined][]
  ).filter(([name]) => name === noStore || wanted(name));
  try {
    if (postgresSkipped === undefined) {
      postgres = await startPostgresServer();
      stores.push([
        'PostgresCheckpointStore',
        new PostgresCheckpointStore({ connectionString: postgres.connectionString }),
      ]);
    }
    if (redisSkipped === undefined) {
      redis = await startRedisServer();
      stores.push(['RedisCheckpointStore', new RedisCheckpointStore({ connection: redis.connection })]);
    }
    const contenders: Contender[] = [];
    for (const [name, plain] of stores) {
      const script = new Script(buildScenario('S3-200'));
      const store = plain === undefined ? undefined : new Forgetful(plain);
      contenders.push({
        store,
        name,
        script,
        run: await prepareOurs(script, {
          via: 'run',
          options: store === undefined ? {} : { checkpointStore: store },
        }),
        durations: [],
      });
    }
    const steps = 2 * contenders[0]!.script.scenario.turns.length;
    const warmupStart = performance.now();
    while (performance.now() - warmupStart < options.warmupMs) {
      for (const contender of contenders) {
        await verifiedRun(contender.run, contender.script);
        await contender.store?.forget();
      }
    }
    // Per-save times of the stores that do I/O; timing the in-memory ones would add to what they cost.
    for (const contender of contenders) {
      if (contender.store !== undefined && !/^(Memory|No-op)/.test(contender.name))
        contender.store.timing = true;
    }
    let cycles = 0;
    const timedStart = performance.now();
    while (cycles < options.minCycles || performance.now() - timedStart < options.timedMs) {
      for (let offset = 0; offset < contenders.length; offset++) {
        const contender = contenders[(cycles + offset) % contenders.length]!;
        const started = performance.now();
        await verifiedRun(contender.run, contender.script);
        contender.durations.push(performance.now() - started);
        await contender.store?.forget();
      }
      cycles++;
    }
    const reference = contenders[0]!;
    const turns = reference.script.scenario.turns.length;
    return {
      ok: true,
      cycles,
      ...(postgresSkipped === undefined ? {} : { postgresSkipped }),
      ...(redisSkipped === undefined ? {} : { redisSkipped }),
      variants: contenders.map((contender) => ({
        variant: contender.name,
        microsecondsPerTurn: (median(contender.durations) * 1000) / turns,
        ratioToNoStore: median(
          contender.durations.map((duration, cycle) => duration / reference.durations[cycle]!),
        ),
        millisecondsPerStep: median(
          contender.durations.map((duration, cycle) => (duration - reference.durations[cycle]!) / steps),
        ),
        medianSaveMs:
          contender.store === undefined || contender.store.saveTimes.length === 0
            ? undefined
            : median(contender.store.saveTimes),
      })),
    };
  } catch (error) {
    return { ok: false, failure: (error as Error).message };
  } finally {
    for (const [, store] of stores) await (store as { close?: () => Promise<void> } | undefined)?.close?.();
    await postgres?.stop();
    await redis?.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as CheckpointChildOptions;
measure(options).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  },
);
