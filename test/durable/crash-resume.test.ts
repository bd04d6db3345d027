import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/index.js';
import { usePostgresServer } from '../support/postgres-fixture.js';
import { expectValidTranscript } from '../support/transcript.js';
import { runKillableChild } from '../support/run-killable-child.js';

// A real run in a child process is killed with SIGKILL while a tool runs, then resumed in a fresh
// process: with FileCheckpointStore and with PostgresCheckpointStore (a real PostgreSQL).
const child = fileURLToPath(new URL('fixtures/durable-run-child.ts', import.meta.url));
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crash-resume-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Runs the child; with `killAt`, SIGKILLs it once it prints that line. */
function runChild(
  args: readonly string[],
  killAt?: string,
): Promise<{ stdout: string; signal: string | null }> {
  return runKillableChild(child, args, killAt);
}

async function crashAndResume(kind: 'file' | 'postgres', location: string): Promise<void> {
  const log = join(scratch, `${kind}.log`);
  const crashed = await runChild([kind, location, 'start', `crash-${kind}`, log], 'HANG');
  expect(crashed.signal).toBe('SIGKILL');
  const resumed = await runChild([kind, location, 'resume', `crash-${kind}`, log]);
  const { content, messages } = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!) as {
    content: string;
    messages: ChatMessage[];
  };
  expectValidTranscript(messages);
  const lines = (await readFile(log, 'utf8')).trim().split('\n');
  const finished = lines.filter((line) => line.startsWith('finish '));
  // Every tool that finished ran to its end exactly once overall...
  expect(finished.sort()).toEqual([
    'finish hang h1',
    'finish write x1',
    'finish write x2',
    'finish write x3',
  ]);
  // ...those that finished before the kill never started again, and the interrupted one ran twice.
  expect(lines.filter((line) => line === 'start write x1')).toHaveLength(1);
  expect(lines.filter((line) => line === 'start write x2')).toHaveLength(1);
  expect(lines.filter((line) => line === 'start hang h1')).toHaveLength(2);
  // The same content as an uninterrupted run of the same script.
  const whole = await runChild([
    kind,
    location,
    'whole',
    `whole-${kind}`,
    join(scratch, `${kind}-whole.log`),
  ]);
  expect(content).toBe((JSON.parse(whole.stdout.trim().split('\n').at(-1)!) as { content: string }).content);
  expect(content).toBe('results: wrote 1, wrote 2, hung once, wrote 3');
}

describe('a run killed mid-tool resumes in a new process', () => {
  it('with FileCheckpointStore', { timeout: 60_000 }, async () => {
    await crashAndResume('file', join(scratch, 'checkpoints'));
  });

  const postgres = usePostgresServer();
  it('with PostgresCheckpointStore', { timeout: 60_000 }, async (context) => {
    if (postgres.skipReason !== undefined) context.skip(postgres.skipReason);
    await crashAndResume('postgres', postgres.server.connectionString);
  });
});
