import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { ScriptProgram } from '../../../src/explore/index/script-program.js';
import { exploreEntryUrl, runScriptInChild } from '../../support/run-in-child.js';

// Warming the program after a question runs on unreferenced timers: a process that has nothing
// else to do exits, warming or not.

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'background-warming-'));
  for (let file = 0; file < 300; file += 1) {
    const previous = file === 0 ? '' : `import { value${file - 1} } from './module-${file - 1}.js';\n`;
    await writeFile(
      join(root, `module-${file}.ts`),
      `${previous}export const value${file} = ${file === 0 ? '0' : `value${file - 1} + 1`};\n`,
    );
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('background warming', () => {
  it('keeps no process alive: nothing it waits on holds the event loop', async () => {
    const outcome = await runScriptInChild(
      `
import { CodeIndex } from ${JSON.stringify(exploreEntryUrl)};
const index = new CodeIndex({ root: process.env.WARMING_ROOT, cache: false });
const references = await index.references('value150');
// The question's end started warming: its pending timer must not be one that keeps the loop alive.
await new Promise((resolve) => setImmediate(resolve));
console.log(JSON.stringify({ total: references.total, active: process.getActiveResourcesInfo() }));
`,
      { deadlineMs: 60_000, env: { WARMING_ROOT: root } },
    );
    expect(outcome.stderr).toBe('');
    expect(outcome.timedOut).toBe(false);
    expect(outcome.exitCode).toBe(0);
    const printed = JSON.parse(outcome.stdout) as { total: number; active: string[] };
    expect(printed.total).toBeGreaterThan(0);
    expect(printed.active.filter((resource) => resource === 'Timeout')).toEqual([]);
  });

  it('makes the program after a repo map, which answers without one', async () => {
    const context = vi.spyOn(ScriptProgram.prototype, 'context');
    const index = new CodeIndex({ root, cache: false });
    try {
      expect((await index.repoMap()).text).toContain('module-');
      expect(context).not.toHaveBeenCalled();
      // Between questions, the background warming makes it.
      const deadline = Date.now() + 10_000;
      while (context.mock.calls.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(context).toHaveBeenCalled();
    } finally {
      await index.close();
      context.mockRestore();
    }
  }, 60_000);
});
