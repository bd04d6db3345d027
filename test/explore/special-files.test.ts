import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertExitedCleanly, exploreEntryUrl, runScriptInChild } from '../support/run-in-child.js';

// FIFOs and device files are POSIX; every hang is run in a child process killed at a deadline,
// so a regression fails its test instead of freezing the suite.
const posix = process.platform !== 'win32';
let root: string;
let elsewhere: string;

function git(...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd: root, stdio: 'ignore' },
  );
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'special-files-test-'));
  elsewhere = await mkdtemp(join(tmpdir(), 'special-files-elsewhere-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(elsewhere, { recursive: true, force: true });
});

/** Runs each tool call in a child, printing `{ name: output or "error: message" }` as JSON. */
function toolCallsScript(calls: readonly (readonly [string, Record<string, unknown>])[]): string {
  return `
import { createCodeTools } from ${JSON.stringify(exploreEntryUrl)};
const tools = createCodeTools({ root: process.env.PROBE_ROOT });
const context = { signal: new AbortController().signal };
const results = {};
for (const [name, input] of ${JSON.stringify(calls)}) {
  try {
    results[name] = await tools[name].execute(input, context);
  } catch (error) {
    results[name] = 'error: ' + error.message;
  }
}
console.log(JSON.stringify(results));
`;
}

async function runToolCalls(
  calls: readonly (readonly [string, Record<string, unknown>])[],
): Promise<Record<string, string>> {
  const outcome = await runScriptInChild(toolCallsScript(calls), {
    deadlineMs: 15_000,
    memoryLimitMb: 2048,
    env: { PROBE_ROOT: root },
  });
  assertExitedCleanly(outcome);
  return JSON.parse(outcome.stdout) as Record<string, string>;
}

describe.runIf(posix)('a .gitignore that is not a regular file cannot freeze the process', () => {
  const calls = [
    ['list_files', { path: 'src' }],
    ['search_text', { pattern: 'hello', path: 'src' }],
    ['git_diff', {}],
  ] as const;

  beforeEach(async () => {
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src/a.ts'), 'export const hello = 1;\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'Add a.ts');
    await writeFile(join(root, 'src/a.ts'), 'export const hello = 2;\n');
  });

  function expectWorkingTools(results: Record<string, string>): void {
    expect(results.list_files).toBe('src/a.ts');
    expect(results.search_text).toBe('src/a.ts:1: export const hello = 2;');
    expect(results.git_diff).toContain('+export const hello = 2;');
  }

  it('a FIFO', async () => {
    execFileSync('mkfifo', [join(root, '.gitignore')]);
    expectWorkingTools(await runToolCalls(calls));
  });

  it('a symlink to a FIFO', async () => {
    execFileSync('mkfifo', [join(elsewhere, 'pipe')]);
    await symlink(join(elsewhere, 'pipe'), join(root, '.gitignore'));
    expectWorkingTools(await runToolCalls(calls));
  });

  it('a symlink to /dev/zero (an endless read)', async () => {
    await symlink('/dev/zero', join(root, '.gitignore'));
    expectWorkingTools(await runToolCalls(calls));
  });

  it('a symlink to a regular file outside the root is not read either (git does not follow it)', async () => {
    await writeFile(join(elsewhere, 'rules'), 'src/\n');
    await symlink(join(elsewhere, 'rules'), join(root, '.gitignore'));
    expectWorkingTools(await runToolCalls(calls));
  });

  it('a nested .gitignore that is a FIFO, met by git_diff checking the file below it', async () => {
    execFileSync('mkfifo', [join(root, 'src/.gitignore')]);
    const results = await runToolCalls([['git_diff', {}]]);
    expect(results.git_diff).toContain('+export const hello = 2;');
  });
});

describe.runIf(posix)('a listed file swapped for a FIFO during search_text', () => {
  it('does not leave a worker stuck in open(): the search ends and the process exits', async () => {
    // f00 keeps its worker busy for a second or more (a backtracking pattern); f12 is searched
    // after it by the same worker whatever the worker count (1 to 4), and is swapped for a FIFO
    // while f00 is being matched, i.e. after the listing saw it as a regular file.
    await writeFile(join(root, 'f00.txt'), `${'x'.repeat(26)}\ny\n`);
    await writeFile(join(root, 'f01.txt'), 'xxy\n');
    for (let index = 2; index <= 12; index++) {
      await writeFile(join(root, `f${String(index).padStart(2, '0')}.txt`), 'plain\n');
    }
    execFileSync('mkfifo', [join(elsewhere, 'pipe')]);
    const script = `
import { renameSync } from 'node:fs';
import { createCodeTools } from ${JSON.stringify(exploreEntryUrl)};
const root = process.env.PROBE_ROOT;
const tools = createCodeTools({ root, tools: ['search_text'], limits: { searchTimeoutMs: 10_000 } });
setTimeout(() => renameSync(process.env.PROBE_PIPE, root + '/f12.txt'), 400);
let output;
try {
  output = await tools.search_text.execute({ pattern: '(x+x+)+y' }, { signal: new AbortController().signal });
} catch (error) {
  output = 'error: ' + error.message;
}
console.log(JSON.stringify(output));
`;
    const outcome = await runScriptInChild(script, {
      deadlineMs: 25_000,
      env: { PROBE_ROOT: root, PROBE_PIPE: join(elsewhere, 'pipe') },
    });
    assertExitedCleanly(outcome);
    expect(JSON.parse(outcome.stdout)).toBe('f01.txt:1: xxy');
    expect((await lstat(join(root, 'f12.txt'))).isFIFO()).toBe(true);
  }, 30_000);
});

describe.runIf(posix)('a source file swapped after the code index listed it', () => {
  // A CodeIndex over a sandbox that swaps use.ts right after the index read it: the language
  // service then reads use.ts itself, and must meet a pipe or device without blocking.
  const script = `
import { renameSync } from 'node:fs';
import { CodeIndex, Sandbox } from ${JSON.stringify(exploreEntryUrl)};
const root = process.env.PROBE_ROOT;
const real = new Sandbox({ root });
let swapped = false;
const sandbox = {
  root: real.root,
  limits: real.limits,
  resolve: (path) => real.resolve(path),
  relative: (path) => real.relative(path),
  listFiles: (options) => real.listFiles(options),
  stat: (path) => real.stat(path),
  async readText(path, options) {
    const file = await real.readText(path, options);
    if (path === 'use.ts' && !swapped) {
      swapped = true;
      renameSync(process.env.PROBE_SWAP, root + '/use.ts');
    }
    return file;
  },
};
const result = await new CodeIndex({ sandbox }).references('area', { includeDeclaration: true });
console.log(JSON.stringify({ swapped, files: result.files.map((file) => file.path) }));
`;

  beforeEach(async () => {
    await writeFile(
      join(root, 'shapes.ts'),
      'export function area(side: number): number {\n  return side;\n}\n',
    );
    await writeFile(
      join(root, 'use.ts'),
      "import { area } from './shapes';\nexport const total = area(2);\n",
    );
  });

  async function references(): Promise<{ swapped: boolean; files: string[] }> {
    const outcome = await runScriptInChild(script, {
      deadlineMs: 15_000,
      memoryLimitMb: 2048,
      env: { PROBE_ROOT: root, PROBE_SWAP: join(elsewhere, 'swap') },
    });
    assertExitedCleanly(outcome);
    return JSON.parse(outcome.stdout) as { swapped: boolean; files: string[] };
  }

  it('for a FIFO: the language service skips it', async () => {
    execFileSync('mkfifo', [join(elsewhere, 'swap')]);
    expect(await references()).toEqual({ swapped: true, files: ['shapes.ts'] });
  });

  it('for a symlink to /dev/zero: the language service skips it', async () => {
    await symlink('/dev/zero', join(elsewhere, 'swap'));
    expect(await references()).toEqual({ swapped: true, files: ['shapes.ts'] });
  });
});
