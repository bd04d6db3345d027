import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/explore/index.js';
import { createListFilesTool } from '../../src/explore/tools/list-files.js';

const context = { signal: new AbortController().signal } as never;
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'list-files-test-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function listFiles(sandboxRoot: string, input: Record<string, unknown>): Promise<string> {
  const tool = createListFilesTool({ sandbox: new Sandbox({ root: sandboxRoot }) });
  return (await tool.execute(input as never, context)) as string;
}

describe('list_files', () => {
  it('lists lib/ of the axios package, sorted and repo-relative', async () => {
    const output = await listFiles('node_modules/axios', { path: 'lib', max_results: 1000 });
    const lines = output.split('\n');
    expect(lines).toContain('lib/axios.js');
    expect(lines).toContain('lib/core/Axios.js');
    expect(lines.every((line) => line.startsWith('lib/'))).toBe(true);
    expect([...lines].sort()).toEqual(lines);
  });

  it('filters with a glob pattern, by basename or by path', async () => {
    const byName = await listFiles('node_modules/axios', { pattern: 'Axios*.js' });
    expect(byName.split('\n')).toEqual([
      'lib/core/Axios.js',
      'lib/core/AxiosError.js',
      'lib/core/AxiosHeaders.js',
      'lib/helpers/AxiosTransformStream.js',
      'lib/helpers/AxiosURLSearchParams.js',
    ]);
    const byPath = await listFiles('node_modules/axios', { path: 'lib', pattern: 'cancel/*.js' });
    expect(byPath.split('\n')).toEqual([
      'lib/cancel/CancelToken.js',
      'lib/cancel/CanceledError.js',
      'lib/cancel/isCancel.js',
    ]);
  });

  it('hides .git, node_modules, build output, gitignored and secret files', async () => {
    for (const file of [
      'src/a.ts',
      '.git/config',
      'node_modules/x/index.js',
      'dist/a.js',
      'build/b.js',
      'tmp.log',
      '.env',
    ]) {
      await mkdir(join(root, file, '..'), { recursive: true });
      await writeFile(join(root, file), 'x');
    }
    await writeFile(join(root, '.gitignore'), '*.log\n');
    expect(await listFiles(root, {})).toBe('.gitignore\nsrc/a.ts');
  });

  it('says how many more files there are and how to narrow when over the cap', async () => {
    const output = await listFiles('node_modules/axios', { max_results: 5 });
    const all = await new Sandbox({ root: 'node_modules/axios' }).listFiles();
    expect(all.length).toBeGreaterThan(5);
    const lines = output.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      ...all.slice(0, 5),
      '',
      `[${all.length - 5} more files not shown (${all.length} in all). Narrow with \`path\` or \`pattern\`, or raise \`max_results\`. Files per directory:`,
    ]);
    expect(output).toMatch(/\[\d+ more files not shown \(\d+ in all\)\. Narrow with `path` or `pattern`/);
    expect(output).toMatch(/^ {2}lib\/: \d+$/m);
  });

  it('explains an empty result', async () => {
    expect(await listFiles('node_modules/axios', { pattern: '*.nothing' })).toMatch(
      /^No files matching "\*\.nothing" under "\."/,
    );
  });

  it('rejects a path outside the root', async () => {
    await expect(listFiles(root, { path: '../..' })).rejects.toThrow(/outside the repository root/);
  });

  // Creating 50,000 files takes 20-30 s on a loaded disk, so the walk cap is exercised with
  // 2,100 files and maxFiles 2,000; a real 50,000-file tree lists in about 150 ms.
  it('degrades gracefully on a tree larger than maxFiles: capped output, truncation flagged', async () => {
    for (let directory = 0; directory < 21; directory += 1) {
      const path = join(root, `d${String(directory).padStart(3, '0')}`);
      mkdirSync(path);
      for (let file = 0; file < 100; file += 1) writeFileSync(join(path, `f${file}.txt`), '');
    }
    const tool = createListFilesTool({ sandbox: new Sandbox({ root, limits: { maxFiles: 2_000 } }) });
    const started = Date.now();
    const output = (await tool.execute({}, context)) as string;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(output.split('\n')[0]).toBe('d000/f0.txt');
    expect(output).toMatch(/\[1800\+ more files not shown \(2000\+ in all\)/);
    expect(output.length).toBeLessThan(40_000);
  }, 60_000);
});
