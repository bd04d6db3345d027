import { mkdtemp, readFile, readdir, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCheckpointStore, InvalidArgumentError, InvalidRunStateError } from '../../src/index.js';
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

for (const sync of [true, false]) {
  describeCheckpointStoreContract(`FileCheckpointStore (sync: ${sync})`, async () => {
    const dir = await freshDirectory();
    return {
      store: new FileCheckpointStore({ dir, sync }),
      sibling: () => new FileCheckpointStore({ dir, sync }),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  });
}

describe('FileCheckpointStore files', () => {
  it('writes one folder per run: state.json and one append-only transcript file, nothing else', async () => {
    const dir = await freshDirectory();
    const store = new FileCheckpointStore({ dir });
    const states = growingStates('layout', 5);
    const sizes: number[] = [];
    for (const state of states) {
      await store.save(state.runId, state);
      sizes.push((await readFile(join(dir, 'layout', 'transcript-1.jsonl'))).length);
    }
    expect(await readdir(dir)).toEqual(['layout']);
    expect((await readdir(join(dir, 'layout'))).sort()).toEqual(['state.json', 'transcript-1.jsonl']);
    // The transcript only grew; each line is "<16 hex> <json>".
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    const lines = (await readFile(join(dir, 'layout', 'transcript-1.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(states.at(-1)!.messages.length);
    for (const line of lines) expect(line).toMatch(/^[0-9a-f]{16} \{/);
    // state.json holds no message.
    const stateFile = await readFile(join(dir, 'layout', 'state.json'), 'utf8');
    expect(stateFile).not.toContain('"messages"');
    expect(stateFile.length).toBeLessThan(1500);
  });

  it('writes a new transcript file when the transcript was replaced, and removes the old one', async () => {
    const dir = await freshDirectory();
    const store = new FileCheckpointStore({ dir });
    const states = growingStates('generations', 3);
    for (const state of states) await store.save(state.runId, state);
    const last = states.at(-1)!;
    await store.save('generations', { ...last, step: last.step + 1, messages: last.messages.slice(1) });
    expect((await readdir(join(dir, 'generations'))).sort()).toEqual(['state.json', 'transcript-2.jsonl']);
  });

  it('ignores bytes after the checkpoint (a write cut short by a crash) and writes over them on the next save', async () => {
    const dir = await freshDirectory();
    const store = new FileCheckpointStore({ dir });
    const states = growingStates('torn', 4);
    for (const state of states.slice(0, 5)) await store.save(state.runId, state);
    const transcript = join(dir, 'torn', 'transcript-1.jsonl');
    await appendFile(
      transcript,
      '0123456789abcdef {"role":"tool","tool_call_id":"call_9","content":"cut sho',
    );
    expect(await new FileCheckpointStore({ dir }).load('torn')).toEqual(states[4]);
    const fresh = new FileCheckpointStore({ dir });
    for (const state of states.slice(5)) await fresh.save(state.runId, state);
    expect(await new FileCheckpointStore({ dir }).load('torn')).toEqual(states.at(-1));
    expect(await readFile(transcript, 'utf8')).not.toContain('cut sho');
  });

  it('reports a damaged line (it does not match its checksum) by message index and file', async () => {
    const dir = await freshDirectory();
    const store = new FileCheckpointStore({ dir });
    for (const state of growingStates('damaged', 3)) await store.save(state.runId, state);
    const transcript = join(dir, 'damaged', 'transcript-1.jsonl');
    const lines = (await readFile(transcript, 'utf8')).split('\n');
    lines[2] = lines[2]!.replace('"page"', '"gape"');
    await writeFile(transcript, lines.join('\n'));
    const loading = new FileCheckpointStore({ dir }).load('damaged');
    await expect(loading).rejects.toThrow(InvalidRunStateError);
    await expect(new FileCheckpointStore({ dir }).load('damaged')).rejects.toThrow(
      /run "damaged" at messages\[2\].*does not match its checksum in .*transcript-1\.jsonl: the checkpoint is damaged/,
    );
  });

  it('reports a state.json of another format instead of guessing', async () => {
    const dir = await freshDirectory();
    const store = new FileCheckpointStore({ dir });
    await store.save('other', makeRunState({ runId: 'other' }));
    await writeFile(join(dir, 'other', 'state.json'), '{"format":"something-else"}');
    await expect(store.load('other')).rejects.toThrow(/is not a checkpoint of this format/);
    await writeFile(join(dir, 'other', 'state.json'), '{"format":');
    await expect(store.load('other')).rejects.toThrow(/state\.json is not JSON: the checkpoint is damaged/);
  });

  it('encodes run ids into safe folder names and refuses ones too long for a file system', async () => {
    const dir = await freshDirectory();
    const store = new FileCheckpointStore({ dir });
    await store.save('../up', makeRunState({ runId: '../up' }));
    expect(await readdir(dir)).toEqual(['%2E%2E%2Fup']);
    const long = 'é'.repeat(40);
    await expect(store.save(long, makeRunState({ runId: long }))).rejects.toThrow(
      /Invalid runId .*too long for FileCheckpointStore.*240 characters, more than 200/,
    );
  });

  it('names a bad dir or sync option', () => {
    expect(() => new FileCheckpointStore({ dir: '' })).toThrow(InvalidArgumentError);
    expect(() => new FileCheckpointStore({} as { dir: string })).toThrow(/Invalid dir \(undefined\)/);
    expect(() => new FileCheckpointStore({ dir: 'x', sync: 'yes' as unknown as boolean })).toThrow(
      /Invalid sync \("yes"\): must be true or false/,
    );
  });
});
