import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The build with this repository's tsup.config.ts (declarations aside: they take longest and are
// checked by declarations.test.ts), into a temporary folder so dist/ is left alone.
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const deadlineMs = 180_000;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'build-output-test-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('npx tsup', () => {
  it(
    'prints its progress and no warning (such as an import a bundle keeps but never uses)',
    async () => {
      const { stdout, stderr } = await run('npx', ['tsup', '--no-dts', '--out-dir', scratch], {
        cwd: root,
        timeout: deadlineMs,
        env: { ...process.env, NO_COLOR: '1' },
      });
      const lines = stripVTControlCharacters(`${stdout}\n${stderr}`)
        .split('\n')
        .filter((line) => line.trim() !== '');
      // The scan works: the build's own progress is there.
      expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^ESM .*Build success/)]));
      expect(lines.filter((line) => !/^(CLI|ESM|CJS) /.test(line))).toEqual([]);
    },
    deadlineMs + 10_000,
  );
});
