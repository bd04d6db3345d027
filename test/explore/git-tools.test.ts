import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/explore/index.js';
import { createGitDiffTool } from '../../src/explore/tools/git-diff.js';
import { createGitLogTool } from '../../src/explore/tools/git-log.js';

const context = { signal: new AbortController().signal } as never;
let repository: string;
let notARepository: string;

function git(...args: string[]): string {
  return gitIn(repository, ...args);
}

function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    [
      '-c',
      'user.name=Ada Lovelace',
      '-c',
      'user.email=ada@example.com',
      '-c',
      'commit.gpgsign=false',
      ...args,
    ],
    {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_DATE: '2024-03-01T10:00:00Z',
        GIT_COMMITTER_DATE: '2024-03-01T10:00:00Z',
      },
    },
  );
}

beforeAll(async () => {
  repository = await mkdtemp(join(tmpdir(), 'git-tools-test-'));
  notARepository = await mkdtemp(join(tmpdir(), 'git-tools-plain-'));
  git('init', '-q');
  await writeFile(join(repository, 'a.txt'), 'one\n');
  await writeFile(join(repository, '.env'), 'TOKEN=old\n');
  git('add', '.');
  git('commit', '-q', '-m', 'Add a.txt');
  await writeFile(join(repository, 'b.txt'), 'two\n');
  git('add', 'b.txt');
  git('commit', '-q', '-m', 'Add b.txt');
  await writeFile(join(repository, 'a.txt'), 'one changed\n');
  await writeFile(join(repository, '.env'), 'TOKEN=new-secret\n');
});
afterAll(async () => {
  await rm(repository, { recursive: true, force: true });
  await rm(notARepository, { recursive: true, force: true });
});

async function run(
  factory: typeof createGitLogTool | typeof createGitDiffTool,
  input: Record<string, unknown>,
  root = repository,
): Promise<string> {
  return (await factory({ sandbox: new Sandbox({ root }) }).execute(input as never, context)) as string;
}

describe('git_log', () => {
  it('lists commits newest first with hash, date, author and subject', async () => {
    const lines = (await run(createGitLogTool, {})).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^[0-9a-f]{7,} {2}2024-03-01 {2}Ada Lovelace {2}Add b\.txt$/);
    expect(lines[1]).toMatch(/^[0-9a-f]{7,} {2}2024-03-01 {2}Ada Lovelace {2}Add a\.txt$/);
  });

  it('limits to n commits and to one path, and says how to see more', async () => {
    const output = await run(createGitLogTool, { n: 1 });
    expect(output).toMatch(/Add b\.txt\n\[Showing the newest 1 commits; pass a larger n/);
    expect(await run(createGitLogTool, { path: 'a.txt' })).toMatch(
      /^[0-9a-f]+ {2}2024-03-01 {2}Ada Lovelace {2}Add a\.txt$/,
    );
  });

  it('refuses a path outside the root', async () => {
    await expect(run(createGitLogTool, { path: '../../etc' })).rejects.toThrow(/outside the repository root/);
  });

  it('fails clearly outside a git repository', async () => {
    await expect(run(createGitLogTool, {}, notARepository)).rejects.toThrow(
      /is not inside a git repository, so git_log cannot run/,
    );
  });
});

describe('git_diff', () => {
  it('shows uncommitted changes against HEAD, without secret files', async () => {
    const output = await run(createGitDiffTool, {});
    expect(output).toContain('diff --git a/a.txt b/a.txt');
    expect(output).toContain('-one\n+one changed');
    expect(output).not.toMatch(/\.env|TOKEN/);
  });

  it('compares with another base and limits to a path', async () => {
    const output = await run(createGitDiffTool, { base: 'HEAD~1', path: 'b.txt' });
    expect(output).toContain('+two');
    expect(output).not.toContain('a.txt');
  });

  it('rejects an option-like or malformed base before running git', async () => {
    await expect(run(createGitDiffTool, { base: '--output=/tmp/pwned' })).rejects.toThrow(
      /Invalid base "--output=\/tmp\/pwned".*not starting with "-"/,
    );
    await expect(run(createGitDiffTool, { base: 'HEAD; rm -rf /' })).rejects.toThrow(/Invalid base/);
  });

  it('rejects a base naming a tree or blob (rev:path), which would rename paths past the deny list', async () => {
    await expect(run(createGitDiffTool, { base: 'HEAD:config..HEAD:src' })).rejects.toThrow(
      /Invalid base "HEAD:config\.\.HEAD:src".*no ":" paths/,
    );
    await expect(run(createGitDiffTool, { base: 'HEAD~1:.env' })).rejects.toThrow(
      /Invalid base "HEAD~1:\.env"/,
    );
    await expect(run(createGitDiffTool, { base: 'HEAD~1..HEAD..HEAD' })).rejects.toThrow(/Invalid base/);
    expect(await run(createGitDiffTool, { base: 'HEAD~1..HEAD' })).toContain('+two');
    expect(await run(createGitDiffTool, { base: 'HEAD~1...HEAD' })).toContain('+two');
  });

  it('explains an unknown revision', async () => {
    await expect(run(createGitDiffTool, { base: 'no-such-branch' })).rejects.toThrow(
      /git does not know that revision/,
    );
  });

  it('caps a long diff and lists the changed files', async () => {
    await writeFile(join(repository, 'b.txt'), `${'changed line\n'.repeat(500)}`);
    const tool = createGitDiffTool({
      sandbox: new Sandbox({ root: repository }),
      limits: { maxOutputChars: 1_000 },
    });
    const output = (await tool.execute({} as never, context)) as string;
    expect(output.length).toBeLessThan(1_500);
    expect(output).toMatch(
      /\[Diff cut at \d+ characters \(git was stopped after 4001 bytes\)\. Changed files:\n a\.txt \| +2/,
    );
    expect(output).toMatch(/Pass path to see one file's diff/);
    expect(output).toMatch(/b\.txt \| +\d+ \+/);
  });

  it('says when there is nothing to show, and fails clearly outside a git repository', async () => {
    expect(await run(createGitDiffTool, { path: 'nothing-here' })).toBe(
      'No differences between HEAD and the working tree in "nothing-here".',
    );
    await expect(run(createGitDiffTool, {}, notARepository)).rejects.toThrow(
      /not inside a git repository, so git_diff cannot run/,
    );
  });
});

/** A fresh repository in a temp dir: `files` committed in order (one commit per object), then `changes` written uncommitted. */
async function createFixture(
  commits: readonly Record<string, string>[],
  changes: Record<string, string>,
): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'git-tools-fixture-'));
  gitIn(root, 'init', '-q');
  for (const [index, files] of commits.entries()) {
    await writeFiles(root, files);
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '--allow-empty', '-m', `Commit ${index + 1}`);
  }
  await writeFiles(root, changes);
  return root;
}

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

describe('git tools run no program configured by the explored repository', () => {
  const fixtures: string[] = [];
  afterAll(async () => {
    for (const fixture of fixtures) await rm(fixture, { recursive: true, force: true });
  });

  async function fixtureWithFilter(filterName: string): Promise<{ root: string; marker: string }> {
    const root = await createFixture([{ 'a.ts': 'one\n', '.gitattributes': `*.ts filter=${filterName}\n` }], {
      'a.ts': 'one changed\n',
    });
    fixtures.push(root);
    const marker = join(root, '..', `${root.split(/[\\/]/).pop() ?? 'x'}-pwned`);
    fixtures.push(marker);
    for (const field of ['clean', 'smudge']) {
      gitIn(root, 'config', `filter.${filterName}.${field}`, `sh -c "touch '${marker}'; cat"`);
    }
    gitIn(root, 'config', `filter.${filterName}.required`, 'true');
    return { root, marker };
  }

  it('overrides clean, smudge and process filters, so git_diff and git_log create no marker file', async () => {
    const { root, marker } = await fixtureWithFilter('x');
    await writeFile(join(root, '.gitattributes'), '*.ts filter=x\n*.md filter=other\n');
    await writeFile(join(root, 'b.md'), 'new\n');
    gitIn(root, 'add', 'b.md');
    await writeFile(join(root, 'b.md'), 'newer\n');
    gitIn(root, 'config', 'filter.other.process', `sh -c "touch '${marker}'"`);
    gitIn(root, 'config', 'filter.other.required', 'true');
    await rm(marker, { force: true });
    const diff = await run(createGitDiffTool, {}, root);
    expect(diff).toContain('-one\n+one changed');
    expect(diff).toContain('+newer');
    expect(await run(createGitLogTool, { path: 'a.ts' }, root)).toMatch(/Commit 1/);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses to run when a filter name cannot be overridden with -c', async () => {
    const { root, marker } = await fixtureWithFilter('q=r');
    await expect(run(createGitDiffTool, {}, root)).rejects.toThrow(
      /git config sets "filter\.q=r\.clean", a name that cannot be safely overridden, so git was not run/,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('does not lazily fetch from a partial clone promisor remote (whose uploadpack is a command)', async () => {
    const origin = await createFixture([{ 'f.txt': '1\n' }, { 'f.txt': '2\n' }], {});
    fixtures.push(origin);
    gitIn(origin, 'config', 'uploadpack.allowFilter', 'true');
    const clone = await mkdtemp(join(tmpdir(), 'git-tools-partial-'));
    fixtures.push(clone);
    gitIn(clone, 'clone', '-q', '--filter=blob:none', '--no-checkout', `file://${origin}`, '.');
    const marker = join(clone, 'pwned');
    gitIn(clone, 'config', 'remote.origin.uploadpack', `touch '${marker}'; git-upload-pack`);
    gitIn(clone, 'config', 'protocol.file.allow', 'always');
    await expect(run(createGitDiffTool, { base: 'HEAD~1..HEAD' }, clone)).rejects.toThrow(/git failed/);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('git_diff hides what the sandbox hides', () => {
  let root: string;
  beforeAll(async () => {
    root = await createFixture(
      [
        {
          'src/app.ts': 'app 1\n',
          'config/settings.json': '{"v":1}\n',
          '.env/production': 'TOKEN=old\n',
          '.ENV': 'TOKEN=old\n',
          'SERVER.PEM': 'old cert\n',
          'keys/id_RSA': 'old key\n',
        },
        { 'src/app.ts': 'app 2\n', 'config/settings.json': '{"v":2}\n' },
      ],
      {
        'src/app.ts': 'app 3\n',
        'config/settings.json': '{"v":3}\n',
        '.env/production': 'TOKEN=new-secret\n',
        '.ENV': 'TOKEN=new-secret\n',
        'SERVER.PEM': 'new cert\n',
        'keys/id_RSA': 'new key\n',
      },
    );
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function diff(input: Record<string, unknown>, sandboxOptions: object = {}): Promise<string> {
    const tool = createGitDiffTool({ sandbox: new Sandbox({ root, ...sandboxOptions }) });
    return (await tool.execute(input as never, context)) as string;
  }

  it('excludes denied names case-insensitively, as files and as directories', async () => {
    const output = await diff({ base: 'HEAD~1' });
    expect(output).toContain('+app 3');
    expect(output).not.toMatch(/TOKEN|cert|key|\.env|\.ENV|PEM|id_RSA/);
  });

  it('excludes the sandbox exclude globs', async () => {
    const output = await diff({ base: 'HEAD~1' }, { exclude: ['config/**'] });
    expect(output).toContain('+app 3');
    expect(output).not.toContain('settings');
    expect(await diff({ base: 'HEAD~1', path: 'config' }, { exclude: ['config/**'] })).toBe(
      'No differences between HEAD~1 and the working tree in "config".',
    );
  });

  it('refuses git_log for a path the sandbox excludes', async () => {
    const log = createGitLogTool({ sandbox: new Sandbox({ root, exclude: ['config/**'] }) });
    await expect(log.execute({ path: 'config' } as never, context)).rejects.toThrow(
      'Path "config" is outside the files this tool set may read',
    );
    expect(await log.execute({ path: 'src' } as never, context)).toMatch(/^[0-9a-f]{7,} /);
  });

  it('keeps to the sandbox include globs', async () => {
    const output = await diff({ base: 'HEAD~1' }, { include: ['config/**'] });
    expect(output).toContain('+{"v":3}');
    expect(output).not.toContain('app');
  });
});

describe('git_diff on a multi-megabyte change', () => {
  let root: string;
  beforeAll(async () => {
    const lines = (prefix: string) =>
      Array.from({ length: 80_000 }, (_, index) => `${prefix} line ${index} ${'x'.repeat(20)}\n`).join('');
    root = await createFixture([{ 'big.txt': lines('old'), 'small.txt': 'a\n' }], {
      'big.txt': lines('new'),
      'small.txt': 'b\n',
    });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stops git at the cap and returns the first part with the --stat summary', async () => {
    const tool = createGitDiffTool({
      sandbox: new Sandbox({ root }),
      limits: { maxOutputChars: 5_000, gitMaxBufferBytes: 1024 * 1024 },
    });
    const output = (await tool.execute({} as never, context)) as string;
    expect(output.length).toBeLessThan(5_500);
    expect(output).toMatch(/^diff --git a\/big\.txt b\/big\.txt\n/);
    expect(output).toContain('-old line 0 ');
    expect(output).toMatch(
      /\[Diff cut at \d+ characters \(git was stopped after 20001 bytes\)\. Changed files:\n/,
    );
    expect(output).toMatch(/ big\.txt +\| 160000 \+{5,}-{5,}/);
    expect(output).toMatch(/ small\.txt +\| +2 \+-/);
    expect(output).toMatch(/read the file with read_file and a line range\.\]$/);
  });
});
