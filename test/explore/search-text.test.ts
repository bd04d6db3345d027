import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/explore/index.js';
import { createSearchTextTool, latin1Safety, requiredLiterals } from '../../src/explore/tools/search-text.js';
import type { CodeToolLimits } from '../../src/explore/index.js';

const context = { signal: new AbortController().signal } as never;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'search-text-test-'));
  await writeFile(join(root, 'a.ts'), 'const Needle = 1;\nconst other = 2;\nneedle(needle);\n');
  await writeFile(join(root, 'b.md'), 'price: $1.50 (approx)\nNeedle in docs\n');
  await writeFile(join(root, 'c.bin'), Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00]));
  await writeFile(join(root, '.env'), 'NEEDLE_TOKEN=secret\n');
  await writeFile(join(root, '.gitignore'), 'ignored.txt\n');
  await writeFile(join(root, 'ignored.txt'), 'needle\n');
  await writeFile(join(root, 'evil.txt'), `${'a'.repeat(50_000)}b\n`);
  await writeFile(
    join(root, 'unicode.txt'),
    `café = isFormData;\nx\u00a0=\u00a0y\n${'é'.repeat(400)}needle${'é'.repeat(400)}\n`,
  );
  await writeFile(join(root, 'huge.txt'), `${'z'.repeat(10 * 1024 * 1024)}\nneedle\n`);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function search(
  input: Record<string, unknown>,
  sandboxRoot = root,
  limits: Partial<CodeToolLimits> = {},
): Promise<string> {
  const tool = createSearchTextTool({ sandbox: new Sandbox({ root: sandboxRoot }), limits });
  return (await tool.execute(input as never, context)) as string;
}

describe('search_text', () => {
  it('finds a definition in the axios sources as path:line: text', async () => {
    const output = await search({ pattern: '^const isFormData = ', glob: '*.js' }, 'node_modules/axios');
    expect(output).toBe('lib/utils.js:440: const isFormData = (thing) => {');
  });

  it('is case-insensitive by default and case-sensitive on request; skips secrets, gitignored and binary files', async () => {
    const insensitive = await search({ pattern: 'needle', glob: '*.{ts,md,txt,bin}' });
    expect(
      insensitive.split('\n').filter((line) => line.startsWith('a.ts') || line.startsWith('b.md')),
    ).toEqual(['a.ts:1: const Needle = 1;', 'a.ts:3: needle(needle);', 'b.md:2: Needle in docs']);
    expect(insensitive).not.toMatch(/\.env|ignored\.txt|c\.bin|NEEDLE_TOKEN/);
    expect(await search({ pattern: 'Needle', case_sensitive: true, path: 'a.ts' })).toBe(
      'a.ts:1: const Needle = 1;',
    );
  });

  it('searches plain text when regex is false', async () => {
    expect(await search({ pattern: '$1.50 (', regex: false, glob: '*.md' })).toBe(
      'b.md:1: price: $1.50 (approx)',
    );
  });

  it('caps results with per-file counts and asks to narrow', async () => {
    const output = await search({ pattern: 'utils\\.', max_results: 3 }, 'node_modules/axios');
    const lines = output.split('\n');
    expect(lines.slice(0, 3).every((line) => /^[\w/.-]+:\d+: /.test(line))).toBe(true);
    expect(output).toMatch(
      /\[Showing 3 of \d+ matching lines in \d+ files\. Narrow your search with glob, path/,
    );
    expect(output).toMatch(/^ {2}lib\/[\w/]+\.js: \d+$/m);
  });

  it('says so when nothing matches', async () => {
    expect(await search({ pattern: 'no-such-text-anywhere', path: 'a.ts' })).toBe('No matches in 1 files.');
  });

  it('reports no line past the last newline for an empty match', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'search-text-empty-'));
    try {
      await writeFile(join(repo, 'a.ts'), 'one\ntwo\n');
      await writeFile(join(repo, 'b.ts'), 'one\n\nthree');
      await writeFile(join(repo, 'c.ts'), '');
      expect(await search({ pattern: '^$', path: 'a.ts' }, repo)).toBe('No matches in 1 files.');
      expect(await search({ pattern: '^$', path: 'c.ts' }, repo)).toBe('No matches in 1 files.');
      expect(await search({ pattern: '^$' }, repo)).toBe('b.ts:2: ');
      expect(await search({ pattern: 'o$', path: 'a.ts' }, repo)).toBe('a.ts:2: two');
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });

  it('finds nothing in denied directories, secrets in any case, .git, or through symlinked directories', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'search-text-deny-'));
    try {
      await mkdir(join(repo, '.env'));
      await writeFile(join(repo, '.env/production'), 'DBPASS=1\n');
      await writeFile(join(repo, '.ENV'), 'DBPASS=2\n');
      await mkdir(join(repo, '.git'));
      await writeFile(join(repo, '.git/config'), '[user]\n\temail = a@b.c\n');
      await mkdir(join(repo, 'config/secrets'), { recursive: true });
      await writeFile(join(repo, 'config/secrets/db.txt'), 'DBPASS=3\n');
      await symlink(join(repo, 'config/secrets'), join(repo, 'lnk'), 'dir');
      expect(await search({ pattern: 'DBPASS' }, repo)).toBe('config/secrets/db.txt:1: DBPASS=3');
      await expect(search({ pattern: 'email', path: '.git' }, repo)).rejects.toThrow(/secret file/);
      const tool = createSearchTextTool({
        sandbox: new Sandbox({ root: repo, deny: ['config/secrets/*.txt'] }),
      });
      expect(await tool.execute({ pattern: 'DBPASS', path: 'lnk' } as never, context)).toBe(
        'No matches in 0 files.',
      );
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });

  it('explains an invalid regular expression', async () => {
    await expect(search({ pattern: 'foo(' })).rejects.toThrow(
      /Invalid regular expression "foo\(".*regex=false/,
    );
    await expect(search({ pattern: '(?i)foo' })).rejects.toThrow(
      /Inline flags like \(\?i\) are not supported/,
    );
  });

  it('stops a catastrophic regex at the time budget with a clear error', async () => {
    const started = Date.now();
    await expect(
      search({ pattern: '(a+)+$', path: 'evil.txt' }, root, { searchTimeoutMs: 1_000 }),
    ).rejects.toThrow(/stopped after 1 s.*nested quantifiers/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The process is still responsive: a normal search right after works.
    expect(await search({ pattern: 'other', path: 'a.ts' })).toBe('a.ts:2: const other = 2;');
  });

  it('stops when the run is aborted', async () => {
    const tool = createSearchTextTool({ sandbox: new Sandbox({ root }) });
    const aborted = { signal: AbortSignal.abort() } as never;
    await expect(tool.execute({ pattern: 'needle' } as never, aborted)).rejects.toThrow(/abort/i);
  });

  it('skips files over maxFileBytes and names them', async () => {
    const output = await search({ pattern: 'needle', path: 'huge.txt' });
    expect(output).toMatch(
      /^No matches in 1 files\.\n\n\[Skipped 1 files over 2 MiB: huge\.txt\. Page through them with read_file\.\]$/,
    );
  });

  it('shows a window around the match on a very long line', async () => {
    const output = await search({ pattern: 'b$', path: 'evil.txt' });
    expect(output.startsWith('evil.txt:1: …')).toBe(true);
    expect(output.endsWith('ab')).toBe(true);
    expect(output.length).toBeLessThan(400);
  });

  it('matches non-ASCII files as decoded text, including Unicode spaces and long lines', async () => {
    expect(await search({ pattern: 'isFormData', path: 'unicode.txt' })).toBe(
      'unicode.txt:1: café = isFormData;',
    );
    expect(await search({ pattern: 'x\\s=\\sy', path: 'unicode.txt' })).toBe(
      'unicode.txt:2: x\u00a0=\u00a0y',
    );
    const window = await search({ pattern: 'needle', path: 'unicode.txt' });
    expect(window).toBe(`unicode.txt:3: …${'é'.repeat(80)}needle${'é'.repeat(214)}…`);
  });

  it('prefilters on the literals every match must contain', () => {
    expect(requiredLiterals('function\\s+\\w+Error')).toEqual(['function', 'Error']);
    expect(requiredLiterals('ab+c?d')).toEqual(['ab', 'd']);
    expect(requiredLiterals('new (Foo|Bar)\\(\\)')).toEqual(['new ', '()']);
    expect(requiredLiterals('foo|bar')).toEqual([]);
    expect(requiredLiterals('x\\x41')).toEqual([]);
    expect(latin1Safety('import')).toBe('always');
    expect(latin1Safety('^\\s*import')).toBe('unless-unicode-spaces');
    expect(latin1Safety('a.b')).toBe('never');
    expect(latin1Safety('[^a]b')).toBe('never');
  });
});
