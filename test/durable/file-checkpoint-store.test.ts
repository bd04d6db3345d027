import { appendFile, mkdtemp, readFile, readdir, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileCheckpointStore, InvalidArgumentError, InvalidRunStateError } from '../../src/index.js';
import type { FileCheckpointStoreOptions } from '../../src/index.js';
import { growingStates, makeRunState } from '../support/run-states.js';
import { describeCheckpointStoreContract } from './checkpoint-store-contract.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'file-checkpoint-store-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let count = 0;
async function freshDirectory(): Promise<string> {
  return mkdtemp(join(root, `store-${++count}-`));
}

/** Every store a test opens is closed after it: a file left to the garbage collector is a leak. */
const opened: FileCheckpointStore[] = [];
function fileStore(options: FileCheckpointStoreOptions): FileCheckpointStore {
  const store = new FileCheckpointStore(options);
  opened.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** The files under `dir` this process holds open (Linux), by their path. */
async function openFilesUnder(dir: string): Promise<string[]> {
  const descriptors = await readdir('/proc/self/fd').catch(() => undefined);
  if (descriptors === undefined) return [];
  const paths = await Promise.all(descriptors.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return paths.filter((path) => path.startsWith(dir));
}

for (const sync of [true, false]) {
  describeCheckpointStoreContract(`FileCheckpointStore (sync: ${sync})`, async () => {
    const dir = await freshDirectory();
    return {
      store: fileStore({ dir, sync }),
      sibling: () => fileStore({ dir, sync }),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  });
}

/** The log's lines, parsed: `<crc32> <json>`. */
async function logRecords(
  path: string,
): Promise<{ step: number; from: number; messages: unknown[]; state: object }[]> {
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  for (const line of lines) expect(line).toMatch(/^[0-9a-f]{8} \{/);
  return lines.map((line) => JSON.parse(line.slice(9)) as never);
}

describe('FileCheckpointStore files', () => {
  it('writes one append-only log per run: each save adds one line with only the new messages', async () => {
    const dir = await freshDirectory();
    const store = fileStore({ dir });
    const states = growingStates('layout', 5);
    const sizes: number[] = [];
    const log = join(dir, 'layout', 'checkpoint.log');
    for (const state of states.slice(0, -1)) {
      await store.save(state.runId, state);
      sizes.push((await readFile(log)).length);
    }
    expect(await readdir(dir)).toEqual(['layout']);
    expect(await readdir(join(dir, 'layout'))).toEqual(['checkpoint.log']);
    // The log only grew, by one line per save, each carrying the messages added since the last.
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    const records = await logRecords(log);
    expect(records).toHaveLength(states.length - 1);
    let count = 0;
    for (const [index, record] of records.entries()) {
      const state = states[index]!;
      expect(record.step).toBe(state.step);
      expect(record.from).toBe(count);
      expect(record.messages).toEqual(state.messages.slice(count));
      expect(record.state).not.toHaveProperty('messages');
      count = state.messages.length;
    }
    // The run's last save ends it: the log is compacted to one line holding the whole run.
    const last = states.at(-1)!;
    const ended = { ...last, stopReason: 'final' as const, result: { content: 'done' } };
    await store.save(ended.runId, ended);
    const compacted = await logRecords(log);
    expect(compacted).toHaveLength(1);
    expect(compacted[0]).toMatchObject({ step: ended.step, from: 0, messages: ended.messages });
    expect(await fileStore({ dir }).load('layout')).toEqual(ended);
  });

  it('writes only the changed part when the transcript was replaced, and goes on appending', async () => {
    const dir = await freshDirectory();
    const store = fileStore({ dir });
    const states = growingStates('generations', 3);
    for (const state of states) await store.save(state.runId, state);
    const last = states.at(-1)!;
    const edited = last.messages.map((message, index) =>
      index === 3 ? { ...message, content: 'edited' } : message,
    ) as typeof last.messages;
    await store.save('generations', { ...last, step: last.step + 1, messages: edited });
    const records = await logRecords(join(dir, 'generations', 'checkpoint.log'));
    expect(records.at(-1)).toMatchObject({ from: 3, messages: edited.slice(3) });
    expect((await fileStore({ dir }).load('generations'))?.messages).toEqual(edited);
  });

  it('ignores a last line cut short by a crash, or failing its checksum, and writes over it on the next save', async () => {
    const dir = await freshDirectory();
    const store = fileStore({ dir });
    const states = growingStates('torn', 4);
    for (const state of states.slice(0, 5)) await store.save(state.runId, state);
    const log = join(dir, 'torn', 'checkpoint.log');
    await appendFile(log, '0123abcd {"step":99,"from":0,"messages":[{"role":"tool","content":"cut sho');
    expect(await fileStore({ dir }).load('torn')).toEqual(states[4]);
    const fresh = fileStore({ dir });
    for (const state of states.slice(5, 7)) await fresh.save(state.runId, state);
    expect(await fileStore({ dir }).load('torn')).toEqual(states[6]);
    expect(await readFile(log, 'utf8')).not.toContain('cut sho');
    // A whole last line whose checksum fails is a torn write too (the OS wrote part of its blocks).
    const lines = (await readFile(log, 'utf8')).split('\n');
    lines[lines.length - 2] = lines.at(-2)!.replace('"page', '"gape');
    await writeFile(log, lines.join('\n'));
    expect(await fileStore({ dir }).load('torn')).toEqual(states[5]);
    await fresh.close();
    for (const state of states.slice(6)) await fresh.save(state.runId, state);
    expect(await fileStore({ dir }).load('torn')).toEqual(states.at(-1));
    await fresh.close();
  });

  it('reports a damaged line before the last (it does not match its checksum) by line and file', async () => {
    const dir = await freshDirectory();
    const store = fileStore({ dir });
    for (const state of growingStates('damaged', 3)) await store.save(state.runId, state);
    await store.close();
    const log = join(dir, 'damaged', 'checkpoint.log');
    const lines = (await readFile(log, 'utf8')).split('\n');
    lines[2] = lines[2]!.replace('"page', '"gape');
    await writeFile(log, lines.join('\n'));
    const loading = fileStore({ dir }).load('damaged');
    await expect(loading).rejects.toThrow(InvalidRunStateError);
    await expect(fileStore({ dir }).load('damaged')).rejects.toThrow(
      /run "damaged".*line 3 of .*checkpoint\.log does not match its checksum: the checkpoint is damaged/,
    );
  });

  it('reports a line that is not a checkpoint record instead of guessing', async () => {
    const dir = await freshDirectory();
    const store = fileStore({ dir });
    await store.save('other', makeRunState({ runId: 'other' }));
    await store.close();
    const { checksum } = await import('../../src/durable/checkpoint-files.js');
    const json = '{"format":"something-else"}';
    await writeFile(join(dir, 'other', 'checkpoint.log'), `${checksum(json)} ${json}\n`);
    await expect(store.load('other')).rejects.toThrow(
      /line 1 of .*checkpoint\.log is not a checkpoint record of this format/,
    );
  });

  it('compacts the log once it is four times what it holds (past 1 MiB), and keeps every checkpoint loadable', async () => {
    const dir = await freshDirectory();
    const store = fileStore({ dir, sync: false });
    const log = join(dir, 'compacted', 'checkpoint.log');
    // 200 KB of fields per save, a transcript that hardly grows: the log would grow by 200 KB a save.
    const notes = 'n'.repeat(200_000);
    let largest = 0;
    const base = makeRunState({ runId: 'compacted', messages: [{ role: 'user', content: 'go' }] });
    for (let step = 1; step <= 40; step++) {
      const state = { ...base, step, turns: step, strategyState: { notes: `${step} ${notes}` } };
      await store.save('compacted', state);
      largest = Math.max(largest, (await stat(log)).size);
      if (step % 9 === 0) expect(await fileStore({ dir }).load('compacted')).toEqual(state);
    }
    // Without compaction the log would reach 40 x 200 KB = 8 MB; it is compacted once past 1 MiB
    // (four times what it holds is less here), so it never holds more than 1 MiB and one line.
    expect(largest).toBeLessThan(2 ** 20 + 2 * 200_100);
    expect((await fileStore({ dir }).load('compacted'))?.step).toBe(40);
    await store.close();
  });

  it('notices that another instance wrote the run since, and appends after what it wrote', async () => {
    const dir = await freshDirectory();
    const states = growingStates('handover', 6);
    const first = fileStore({ dir });
    const second = fileStore({ dir });
    for (const [index, state] of states.entries()) {
      await (index % 3 === 0 ? second : first).save(state.runId, state);
      if (index % 4 === 0) expect(await fileStore({ dir }).load('handover')).toEqual(state);
    }
    expect(await fileStore({ dir }).load('handover')).toEqual(states.at(-1));
    await first.close();
    await second.close();
  });

  it('encodes run ids into safe folder names and refuses ones too long for a file system', async () => {
    const dir = await freshDirectory();
    const store = fileStore({ dir });
    await store.save('../up', makeRunState({ runId: '../up' }));
    expect(await readdir(dir)).toEqual(['%2E%2E%2Fup']);
    const long = 'é'.repeat(40);
    await expect(store.save(long, makeRunState({ runId: long }))).rejects.toThrow(
      /Invalid runId .*too long for FileCheckpointStore.*240 characters, more than 200/,
    );
  });

  it('closes the file of a run that pauses for approval, and appends to it on the next save', async () => {
    const dir = await freshDirectory();
    const store = fileStore({ dir });
    const [first, second, third] = growingStates('paused', 3);
    await store.save('paused', first!);
    const log = join(dir, 'paused', 'checkpoint.log');
    if (process.platform === 'linux') expect(await openFilesUnder(dir)).toEqual([log]);
    await store.save('paused', { ...second!, stopReason: 'awaiting_approval' });
    expect(await openFilesUnder(dir)).toEqual([]);
    await store.save('paused', third!);
    expect(await logRecords(log)).toHaveLength(3);
    expect(await fileStore({ dir }).load('paused')).toEqual(third);
  });

  it('names a bad dir or sync option', () => {
    expect(() => new FileCheckpointStore({ dir: '' })).toThrow(InvalidArgumentError);
    expect(() => new FileCheckpointStore({} as { dir: string })).toThrow(/Invalid dir \(undefined\)/);
    expect(() => new FileCheckpointStore({ dir: 'x', sync: 'yes' as unknown as boolean })).toThrow(
      /Invalid sync \("yes"\): must be true or false/,
    );
  });
});
