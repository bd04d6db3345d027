import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/explore/index.js';
import { createReadFileTool } from '../../src/explore/tools/read-file.js';

const context = { signal: new AbortController().signal } as never;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'read-file-test-'));
  const numbered = Array.from({ length: 1000 }, (_, index) => `line ${index + 1}`).join('\n');
  await writeFile(join(root, 'thousand.txt'), `${numbered}\n`);
  await writeFile(join(root, 'long-line.js'), `short\n${'x'.repeat(5000)}\nend`);
  await writeFile(join(root, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
  await writeFile(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await writeFile(join(root, 'empty.txt'), '');
  await writeFile(join(root, '.env'), 'TOKEN=secret\n');
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src/request-handler.ts'), 'export {};\n');
  // 10 MB: 200,000 lines of 50 bytes.
  const block = Array.from(
    { length: 1000 },
    (_, index) => `${'y'.repeat(42)} ${String(index).padStart(5, '0')}`,
  ).join('\n');
  await writeFile(join(root, 'huge.log'), `${Array.from({ length: 200 }, () => block).join('\n')}\n`);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function readFile(input: Record<string, unknown>, sandboxRoot = root): Promise<string> {
  const tool = createReadFileTool({ sandbox: new Sandbox({ root: sandboxRoot }) });
  return (await tool.execute(input as never, context)) as string;
}

describe('read_file', () => {
  it('shows numbered lines of an axios source file under a header with its line count', async () => {
    const output = await readFile({ path: 'lib/axios.js', start_line: 1, end_line: 3 }, 'node_modules/axios');
    expect(output).toBe(
      "File: lib/axios.js (89 lines)\n1\t'use strict';\n2\t\n3\timport utils from './utils.js';\n" +
        '[Showing lines 1-3 of 89. To read on, call read_file with start_line=4.]',
    );
  });

  it('shows a 400-line window by default and says how to read on', async () => {
    const output = await readFile({ path: 'thousand.txt' });
    const lines = output.split('\n');
    expect(lines[0]).toBe('File: thousand.txt (1000 lines)');
    expect(lines[1]).toBe('  1\tline 1');
    expect(lines[400]).toBe('400\tline 400');
    expect(lines.at(-1)).toBe(
      '[Showing lines 1-400 of 1000. To read on, call read_file with start_line=401.]',
    );
    const next = await readFile({ path: 'thousand.txt', start_line: 401 });
    expect(next.split('\n')[1]).toBe('401\tline 401');
    const last = await readFile({ path: 'thousand.txt', start_line: 990 });
    expect(last.split('\n').at(-1)).toBe('1000\tline 1000');
  });

  it('cuts very long lines with a marker', async () => {
    const output = await readFile({ path: 'long-line.js' });
    expect(output).toContain(`2\t${'x'.repeat(2000)} … [line cut: 3000 more bytes]`);
    expect(output).toContain('3\tend');
  });

  it('refuses binary files and decodes invalid UTF-8 with replacement characters', async () => {
    await expect(readFile({ path: 'blob.bin' })).rejects.toThrow(/"blob.bin" is binary/);
    expect(await readFile({ path: 'latin1.txt' })).toBe('File: latin1.txt (1 line)\n1\tcaf\uFFFD');
  });

  it('returns a window of a 10 MB file quickly, with its total line count', async () => {
    const started = Date.now();
    const output = await readFile({ path: 'huge.log', start_line: 150_000, end_line: 150_002 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(output.split('\n')).toEqual([
      'File: huge.log (200000 lines)',
      `150000\t${'y'.repeat(42)} 00999`,
      `150001\t${'y'.repeat(42)} 00000`,
      `150002\t${'y'.repeat(42)} 00001`,
      '[Showing lines 150000-150002 of 200000. To read on, call read_file with start_line=150003.]',
    ]);
  });

  it('suggests the closest existing paths for a missing file', async () => {
    await expect(readFile({ path: 'lib/axois.js' }, 'node_modules/axios')).rejects.toThrow(
      /File not found: "lib\/axois.js"\. Did you mean: lib\/axios.js/,
    );
    await expect(readFile({ path: 'request-handler.ts' })).rejects.toThrow(
      /Did you mean: src\/request-handler.ts\?/,
    );
  });

  it('refuses traversal, absolute paths and secrets', async () => {
    await expect(readFile({ path: '../../etc/passwd' })).rejects.toThrow(/outside the repository root/);
    await expect(readFile({ path: '/etc/passwd' })).rejects.toThrow(/is absolute/);
    await expect(readFile({ path: '.env' })).rejects.toThrow(/secret file/);
  });

  it('refuses files inside a denied directory, secrets in any case, and .git', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'read-file-deny-'));
    try {
      await mkdir(join(repo, '.env'));
      await writeFile(join(repo, '.env/production'), 'TOKEN=secret\n');
      await writeFile(join(repo, 'SERVER.PEM'), 'key\n');
      await mkdir(join(repo, '.git'));
      await writeFile(join(repo, '.git/config'), '[user]\n\temail = a@b.c\n');
      for (const path of ['.env/production', 'SERVER.PEM', '.git/config']) {
        await expect(readFile({ path }, repo)).rejects.toThrow(/secret file/);
      }
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });

  it('refuses a file reached through a symlinked directory that exclude hides', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'read-file-link-'));
    try {
      await mkdir(join(repo, 'config/secrets'), { recursive: true });
      await writeFile(join(repo, 'config/secrets/db.txt'), 'DBPASS=1\n');
      await symlink(join(repo, 'config/secrets'), join(repo, 'lnk'), 'dir');
      const tool = createReadFileTool({ sandbox: new Sandbox({ root: repo, exclude: ['config/**'] }) });
      await expect(tool.execute({ path: 'lnk/db.txt' } as never, context)).rejects.toThrow(
        /outside the files this tool set may read/,
      );
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });

  it.skipIf(process.platform === 'win32')('says a FIFO is not a regular file', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await expect(readFile({ path: 'pipe' })).rejects.toThrow(/"pipe" is not a regular file/);
  });

  it('explains directories, empty files, bad ranges and reading past the end', async () => {
    await expect(readFile({ path: 'src' })).rejects.toThrow(/is a directory.*list_files/);
    expect(await readFile({ path: 'empty.txt' })).toBe('File: empty.txt (0 lines)\n(empty file)');
    await expect(readFile({ path: 'thousand.txt', start_line: 10, end_line: 5 })).rejects.toThrow(
      /end_line \(5\) is before/,
    );
    await expect(readFile({ path: 'thousand.txt', start_line: 2000 })).rejects.toThrow(/has 1000 lines/);
  });
});
