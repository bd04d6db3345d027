import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitDiffTool, createGitLogTool, Sandbox } from '../../src/explore/index.js';

const context = { signal: new AbortController().signal } as never;
let repository: string;
let notARepository: string;

function git(...args: string[]): string {
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
      cwd: repository,
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
      /\[Diff cut at \d+ of \d+ characters\. Pass path to see one file's diff\. Changed files:\n a\.txt \| +2/,
    );
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
