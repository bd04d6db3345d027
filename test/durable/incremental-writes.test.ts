import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../../src/index.js';
import { FileCheckpointStore } from '../../src/index.js';
import { PostgresCheckpointStore } from '../../src/postgres.js';
import { usePostgresServer } from '../support/postgres-fixture.js';
import { growingStates } from '../support/run-states.js';

// "A 200-turn run must not rewrite the whole transcript 400 times" (issue 12). Measured from the
// outside: the bytes this process hands to write(2) and send(2) (Linux's /proc/self/io `wchar`),
// for the files and for the connection to PostgreSQL alike.

const postgres = usePostgresServer();
const turns = 200;
const states = growingStates('incremental', turns);
const finalTranscriptBytes = JSON.stringify(states.at(-1)!.messages).length;
/** What saving the whole transcript at every checkpoint would write. */
const rewriteEverythingBytes = states.reduce((sum, state) => sum + JSON.stringify(state.messages).length, 0);
let scratch: string | undefined;

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

function bytesWritten(): number {
  const match = /^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
  return Number(match?.[1]);
}

async function measure(store: CheckpointStore): Promise<number> {
  const before = bytesWritten();
  for (const state of states) await store.save(state.runId, state);
  return bytesWritten() - before;
}

const noProcIo = existsSync('/proc/self/io')
  ? undefined
  : 'no /proc/self/io to count written bytes (Linux only)';

describe(`a ${turns}-turn run with 2 KB results (${states.length} saves)`, () => {
  it('FileCheckpointStore writes each message once, plus the small fields, one log line per save', async (context) => {
    if (noProcIo !== undefined) context.skip(noProcIo);
    scratch = await mkdtemp(join(tmpdir(), 'incremental-writes-'));
    const store = new FileCheckpointStore({ dir: scratch, sync: false });
    const written = await measure(store);
    await store.close();
    const logFile = (await stat(join(scratch, 'incremental', 'checkpoint.log'))).size;
    console.info(
      `file store: ${written.toLocaleString('en-US')} bytes written (a ${logFile.toLocaleString('en-US')}-byte log) for a ${finalTranscriptBytes.toLocaleString('en-US')}-byte transcript; ` +
        `rewriting the transcript at every save would write ${rewriteEverythingBytes.toLocaleString('en-US')}`,
    );
    expect(written).toBeGreaterThan(finalTranscriptBytes);
    expect(written).toBeLessThan(3 * finalTranscriptBytes);
    expect(written * 50).toBeLessThan(rewriteEverythingBytes);
  });

  it('PostgresCheckpointStore sends each message once, plus a small row update per save', async (context) => {
    if (noProcIo !== undefined) context.skip(noProcIo);
    if (postgres.skipReason !== undefined) context.skip(postgres.skipReason);
    const pool = new pg.Pool({ connectionString: postgres.server.connectionString, max: 2 });
    try {
      const store = new PostgresCheckpointStore({ pool, tableName: 'incremental' });
      await store.load('warm-up'); // Creates the tables outside the measurement.
      const written = await measure(store);
      console.info(
        `postgres store: ${written.toLocaleString('en-US')} bytes sent for a ${finalTranscriptBytes.toLocaleString('en-US')}-byte transcript; ` +
          `rewriting the transcript at every save would send ${rewriteEverythingBytes.toLocaleString('en-US')}`,
      );
      expect(written).toBeGreaterThan(finalTranscriptBytes);
      expect(written).toBeLessThan(3 * finalTranscriptBytes);
      expect(written * 50).toBeLessThan(rewriteEverythingBytes);
    } finally {
      await pool.end();
    }
  });
});
