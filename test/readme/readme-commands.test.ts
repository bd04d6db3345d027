import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Slow: a clone, a full install and the whole suite again. CI (CI=true) runs it; set RUN_SLOW_TESTS=1 locally.
// The nested suite sets README_CHECK_NESTED so this test does not run itself again.
const runSlow =
  (process.env['CI'] === 'true' || process.env['RUN_SLOW_TESTS'] === '1') &&
  process.env['README_CHECK_NESTED'] !== '1';

/** The two commands of the README's "The two commands" section: set-up first, then test. */
async function readmeCommands(): Promise<{ setup: string; test: string }> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const section = readme.split('## The two commands')[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const lines = block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  if (lines.length !== 2)
    throw new Error(`README's "The two commands" block should hold 2 commands, found ${lines.length}`);
  return { setup: lines[0]!, test: lines[1]! };
}

function sh(command: string, cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', command],
      {
        cwd,
        env: { ...process.env, README_CHECK_NESTED: '1' },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 20 * 60_000,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          output: `${stdout}\n${stderr}`,
        }),
    );
  });
}

describe('the README', () => {
  it('names its two commands, and .ci/run runs exactly its test command', async () => {
    const { setup, test } = await readmeCommands();
    expect(setup).toContain('npm ci');
    const ci = await readFile(join(root, '.ci', 'run'), 'utf8');
    expect(ci.split('\n').map((line) => line.trim())).toContain(test);
  });

  it.runIf(runSlow)(
    'set-up and test commands work, exactly as written, in a fresh clone',
    async () => {
      const { setup, test } = await readmeCommands();
      const directory = await mkdtemp(join(tmpdir(), 'readme-clone-'));
      try {
        execFileSync('git', ['clone', '--quiet', root, directory]);
        const setupRun = await sh(setup, directory);
        expect(setupRun.code, setupRun.output.slice(-3000)).toBe(0);
        // The main job: a ranked repo map of the clone.
        expect(setupRun.output).toContain('Repo map:');
        expect(setupRun.output).toMatch(/^src\/\S+\.ts:$/m);
        const testRun = await sh(test, directory);
        expect(testRun.code, testRun.output.slice(-3000)).toBe(0);
        expect(testRun.output).toMatch(/Tests\s+.*\d+ passed/);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
    25 * 60_000,
  );
});
