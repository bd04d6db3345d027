import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ListingChanges } from '../../../src/explore/sandbox/listing-changes.js';

// The folders are stamped when `begin` is called (or by the first check), not when the listing is
// taken: a change between the walk and the stamps must still be seen.

let root: string;
const listing = ['src/a.ts', 'src/deep/b.ts'];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'listing-changes-'));
  await mkdir(join(root, 'src/deep'), { recursive: true });
  await writeFile(join(root, 'src/a.ts'), 'a\n');
  await writeFile(join(root, 'src/deep/b.ts'), 'b\n');
  // An hour old, so a walk taken now is not within the racy window of the folders' stamps.
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const path of ['src/deep', 'src', '.']) await utimes(join(root, path), anHourAgo, anHourAgo);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function track(): ListingChanges {
  return new ListingChanges(root, listing, { walkStartedAtMs: Date.now(), watch: false });
}

describe('ListingChanges', () => {
  it('holds an unchanged listing, stamped at begin()', async () => {
    const changes = track();
    changes.begin();
    expect(await changes.provable()).toBe(true);
    expect(await changes.check()).toEqual({ type: 'all-files' });
  });

  it('lists again after a file added between the walk and begin()', async () => {
    const changes = track();
    await writeFile(join(root, 'src/deep/c.ts'), 'c\n');
    changes.begin();
    expect(await changes.check()).toEqual({ type: 'listing' });
  });

  it('lists again after a file added between the walk and a first check that was never begun', async () => {
    const changes = track();
    await writeFile(join(root, 'src/new.ts'), 'new\n');
    expect(await changes.check()).toEqual({ type: 'listing' });
  });

  it('lists again after a file added once the stamps are taken', async () => {
    const changes = track();
    changes.begin();
    expect(await changes.provable()).toBe(true);
    await writeFile(join(root, 'src/deep/d.ts'), 'd\n');
    expect(await changes.check()).toEqual({ type: 'listing' });
  });
});
