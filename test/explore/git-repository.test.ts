import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodeTools, SandboxError } from '../../src/explore/index.js';

// The explored repository is hostile: its .git can name other places on the machine. git must
// only ever show the files and history of the repository the root is in.
const context = { signal: new AbortController().signal } as never;
let scratch: string;

function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8' },
  );
}

/** A repository at `path` with one commit adding `files`. */
async function repositoryWith(path: string, files: Record<string, string>, message: string): Promise<void> {
  await mkdir(path, { recursive: true });
  gitIn(path, 'init', '-q');
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(path, name, '..'), { recursive: true });
    await writeFile(join(path, name), content);
  }
  gitIn(path, 'add', '.');
  gitIn(path, 'commit', '-q', '-m', message);
}

async function call(
  root: string,
  name: 'git_log' | 'git_diff',
  input: Record<string, unknown> = {},
  options: { allowExternalGitDir?: boolean } = {},
): Promise<string> {
  const tools = createCodeTools({ root, tools: [name], ...options });
  return (await tools[name]?.execute(input as never, context)) as string;
}

beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), 'git-repository-test-')));
  // Another repository on the machine, whose files must never show up.
  await repositoryWith(
    join(scratch, 'other'),
    { 'secret.txt': 'other repository secret\n' },
    'Add the secret',
  );
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('git runs on the repository the root is in, named explicitly', () => {
  it('ignores core.worktree in the repository config: git_diff never shows files from elsewhere', async () => {
    const root = join(scratch, 'repo');
    await repositoryWith(root, { 'a.txt': 'mine\n' }, 'Add a.txt');
    await mkdir(join(scratch, 'elsewhere'));
    await writeFile(join(scratch, 'elsewhere', 'a.txt'), 'outside secret\n');
    gitIn(root, 'config', 'core.worktree', join(scratch, 'elsewhere'));
    expect(await call(root, 'git_diff')).toBe('No differences between HEAD and the working tree.');
    await writeFile(join(root, 'a.txt'), 'mine, changed\n');
    const diff = await call(root, 'git_diff');
    expect(diff).toContain('+mine, changed');
    expect(diff).not.toContain('outside secret');
  });

  it('ignores core.bare set in the repository config', async () => {
    const root = join(scratch, 'repo');
    await repositoryWith(root, { 'a.txt': 'mine\n' }, 'Add a.txt');
    gitIn(root, 'config', 'core.bare', 'true');
    await writeFile(join(root, 'a.txt'), 'mine, changed\n');
    expect(await call(root, 'git_diff')).toContain('+mine, changed');
  });

  it('refuses a .git file naming another repository, which would print its files', async () => {
    const root = join(scratch, 'repo');
    await mkdir(root);
    await writeFile(join(root, 'readme.txt'), 'hello\n');
    await writeFile(join(root, '.git'), `gitdir: ${join(scratch, 'other', '.git')}\n`);
    for (const name of ['git_diff', 'git_log'] as const) {
      const failure = call(root, name);
      await expect(failure).rejects.toBeInstanceOf(SandboxError);
      await expect(failure).rejects.toThrow(
        /git data of ".*repo" lies outside it \(\.git leads to ".*other\/\.git"\).*allowExternalGitDir: true/,
      );
    }
  });

  it('refuses a .git symlink to another repository', async () => {
    const root = join(scratch, 'repo');
    await mkdir(root);
    await symlink(join(scratch, 'other', '.git'), join(root, '.git'));
    await expect(call(root, 'git_log')).rejects.toThrow(/lies outside it \(\.git leads to/);
  });

  it('refuses alternates that borrow another repository’s objects (a ref could name its commits)', async () => {
    const root = join(scratch, 'repo');
    await repositoryWith(root, { 'a.txt': 'mine\n' }, 'Add a.txt');
    const otherHead = gitIn(join(scratch, 'other'), 'rev-parse', 'HEAD').trim();
    await writeFile(
      join(root, '.git/objects/info/alternates'),
      `${join(scratch, 'other', '.git', 'objects')}\n`,
    );
    await writeFile(join(root, '.git/refs/heads/borrowed'), `${otherHead}\n`);
    await expect(call(root, 'git_diff', { base: 'borrowed' })).rejects.toThrow(
      /lies outside it \(\.git\/objects\/info\/alternates leads to ".*other\/\.git\/objects"\)/,
    );
  });

  it('refuses a commondir leading to another repository', async () => {
    const root = join(scratch, 'repo');
    await repositoryWith(root, { 'a.txt': 'mine\n' }, 'Add a.txt');
    await writeFile(join(root, '.git/commondir'), `${join(scratch, 'other', '.git')}\n`);
    await expect(call(root, 'git_log')).rejects.toThrow(/lies outside it \(\.git\/commondir leads to/);
  });

  it('runs on a linked worktree only when the caller opts in with allowExternalGitDir', async () => {
    const main = join(scratch, 'main');
    await repositoryWith(main, { 'a.txt': 'mine\n' }, 'Add a.txt');
    const linked = join(scratch, 'linked');
    gitIn(main, 'worktree', 'add', '-q', linked);
    await expect(call(linked, 'git_log')).rejects.toThrow(/allowExternalGitDir: true/);
    const log = await call(linked, 'git_log', {}, { allowExternalGitDir: true });
    expect(log).toMatch(/^[0-9a-f]+ {2}\d{4}-\d\d-\d\d {2}Ada {2}Add a\.txt$/);
  });

  it('says so when the root is in no repository', async () => {
    const root = join(scratch, 'plain');
    await mkdir(root);
    await expect(call(root, 'git_log')).rejects.toThrow(
      /is not inside a git repository, so git_log cannot run/,
    );
  });

  it.runIf(process.getuid?.() === 0)(
    'keeps git’s ownership check for a repository another user owns',
    async () => {
      const root = join(scratch, 'repo');
      await repositoryWith(root, { 'a.txt': 'mine\n' }, 'Add a.txt');
      execFileSync('chown', ['-R', '65534', root]);
      await expect(call(root, 'git_log')).rejects.toThrow(/another user owns it \(safe\.directory\)/);
    },
  );
});

describe('pathspec magic in a path cannot reach outside a subfolder root', () => {
  let root: string;

  beforeEach(async () => {
    const top = join(scratch, 'top');
    await repositoryWith(top, { 'outside.txt': 'one\n' }, 'Touch only outside');
    await mkdir(join(top, 'sub'));
    await writeFile(join(top, 'sub', 'inside.txt'), 'inside\n');
    gitIn(top, 'add', '.');
    gitIn(top, 'commit', '-q', '-m', 'Add inside');
    await writeFile(join(top, 'outside.txt'), 'one, changed outside\n');
    root = join(top, 'sub');
  });

  it('git_log sees the subfolder’s history only', async () => {
    expect(await call(root, 'git_log')).toMatch(/Add inside$/);
  });

  for (const path of [
    ':(top)',
    ':/',
    ':/outside.txt',
    ':(top,glob)**',
    ':(literal)../outside.txt',
    ':(glob)**',
  ]) {
    it(`git_log takes ${JSON.stringify(path)} as a literal file name`, async () => {
      // ':/' is resolved to ':' by the sandbox first.
      expect(await call(root, 'git_log', { path })).toMatch(
        /^No commits touch ":[^"]*": nothing under it has been committed yet\.$/,
      );
    });
  }

  it('git_log’s “is it ignored?” check takes a magic path literally too', async () => {
    // A rule of the parent repository's .gitignore that only ":(top)toponly" would reach.
    await writeFile(join(root, '..', '.gitignore'), '/toponly\n');
    expect(await call(root, 'git_log', { path: ':(top)toponly' })).toBe(
      'No commits touch ":(top)toponly": nothing under it has been committed yet.',
    );
  });

  it('git_diff takes a magic path literally too', async () => {
    expect(await call(root, 'git_diff', { path: ':(top)' })).toBe(
      'No differences between HEAD and the working tree in ":(top)".',
    );
  });
});
