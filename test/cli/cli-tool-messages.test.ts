import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';

// Issue 17 item 12: what the tools say when there is nothing to show.
let repo: string;
let empty: string;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'cli-tool-messages-'));
  await writeFile(join(repo, '.gitignore'), 'ignored/\n');
  await writeFile(join(repo, 'tracked.ts'), 'export const tracked = 1;\n');
  await mkdir(join(repo, 'ignored'));
  await writeFile(join(repo, 'ignored', 'generated.ts'), 'export const generated = 1;\n');
  await mkdir(join(repo, 'fresh'));
  await writeFile(join(repo, 'fresh', 'new.ts'), 'export const fresh = 1;\n');
  await mkdir(join(repo, 'hollow'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd: repo,
      stdio: 'ignore',
    });
  git('init', '--quiet');
  git('add', '.gitignore', 'tracked.ts');
  git('commit', '--quiet', '-m', 'first');
  empty = await mkdtemp(join(tmpdir(), 'cli-empty-'));
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
});

describe('git_log with no commits says why', () => {
  it('on a gitignored folder used as the repository root', async () => {
    const result = await runBuiltCli(['tool', 'git_log', '--repo', join(repo, 'ignored')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`the repository root "${join(repo, 'ignored')}" is ignored by git`);
    expect(result.stdout).not.toMatch(/^No commits\.$/m);
  });

  it('on a gitignored path, and on a folder nothing was committed in', async () => {
    const ignored = await runBuiltCli(['tool', 'git_log', '{"path":"ignored"}', '--repo', repo]);
    expect(ignored.stdout).toContain('No commits: "ignored" is ignored by git');
    const fresh = await runBuiltCli(['tool', 'git_log', '{"path":"fresh"}', '--repo', repo]);
    expect(fresh.stdout).toContain('No commits touch "fresh": nothing under it has been committed yet.');
    const history = await runBuiltCli(['tool', 'git_log', '--repo', repo]);
    expect(history.stdout).toContain('first');
  });
});

describe('list_files on an empty folder', () => {
  it('says the folder is empty instead of suggesting the same call again', async () => {
    const root = await runBuiltCli(['tool', 'list_files', '--repo', empty]);
    expect(root.code).toBe(0);
    expect(root.stdout).toContain('No files in the repository: it is empty, or every file in it is hidden');
    expect(root.stdout).not.toContain('path "."');
    const folder = await runBuiltCli(['tool', 'list_files', '{"path":"hollow"}', '--repo', repo]);
    expect(folder.stdout).toContain('No files under "hollow": it is empty');
    expect(folder.stdout).toContain('list_files with path "." shows the whole tree');
    const pattern = await runBuiltCli(['tool', 'list_files', '{"pattern":"*.py"}', '--repo', repo]);
    expect(pattern.stdout).toContain('No files matching "*.py" under ".". Try a broader pattern.');
  });
});

describe('import_graph on a folder with no source', () => {
  it('says so, with no empty headings', async () => {
    const result = await runBuiltCli(['tool', 'import_graph', '--repo', empty]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('No source files in the repository, so there is no import graph.\n');
    const one = await runBuiltCli(['tool', 'import_graph', '--repo', join(repo, 'fresh')]);
    expect(one.stdout).toBe('1 source file, 0 resolved imports.\n');
  });
});
