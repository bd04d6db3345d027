import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeTools } from '../../src/explore/index.js';

let root: string;
let stuckRipgrep: string;
let pidFile: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ripgrep-stuck-'));
  await writeFile(join(root, 'a.ts'), 'needle\n');
  pidFile = join(root, '..', `${root.split('/').pop() ?? ''}.pid`);
  stuckRipgrep = join(root, '..', `${root.split('/').pop() ?? ''}.stuck-rg.sh`);
  // Answers --version as ripgrep does, then hangs on any search.
  await writeFile(
    stuckRipgrep,
    `#!/bin/sh\nif [ "$1" = --version ]; then echo 'ripgrep 13.0.0'; exit 0; fi\necho $$ > '${pidFile}'\nexec sleep 30\n`,
  );
  await chmod(stuckRipgrep, 0o755);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(stuckRipgrep, { force: true });
  await rm(pidFile, { force: true });
});

/** Polls until the process is gone, for at most two seconds. */
async function isGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('search_text ripgrep process', () => {
  it('kills ripgrep at the time budget and says the search stopped', async () => {
    await rm(pidFile, { force: true });
    const tool = createCodeTools({
      root,
      tools: ['search_text'],
      ripgrep: stuckRipgrep,
      limits: { searchTimeoutMs: 500 },
    }).search_text;
    const started = Date.now();
    await expect(tool?.execute({ pattern: 'needle' } as never, {} as never)).rejects.toThrow(
      /stopped after 0.5 s/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await isGone(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });

  it('kills ripgrep when the run is aborted', async () => {
    await rm(pidFile, { force: true });
    const tool = createCodeTools({ root, tools: ['search_text'], ripgrep: stuckRipgrep }).search_text;
    const controller = new AbortController();
    const search = tool?.execute({ pattern: 'needle' } as never, { signal: controller.signal } as never);
    for (
      let attempt = 0;
      attempt < 100 && (await readFile(pidFile, 'utf8').catch(() => '')) === '';
      attempt += 1
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(search).rejects.toThrow(/abort/i);
    expect(await isGone(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });
});
