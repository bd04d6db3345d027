import { spawnSync } from 'node:child_process';
import { defaultDenyPatterns } from 'tool-orchestrator/explore';

/**
 * The sandbox's default excluded names (`defaultExcludedNames`, not exported), so ripgrep skips
 * what `search_text` skips; the file counts the suite prints show whether the two still agree.
 */
const sandboxExcludedNames = [
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'dist',
  'build',
  'coverage',
  'out',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.cache',
  '.parcel-cache',
  '.venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.tox',
  '.gradle',
  '.idea',
  '.DS_Store',
];

/**
 * ripgrep arguments that make it walk the files `search_text` walks: hidden files in,
 * `.gitignore` honoured without a `.git` folder, the sandbox's excludes and deny list out.
 * A file-type filter stands in for a glob, because rg's `--glob` would override `.gitignore`.
 */
export const ripgrepWalkArguments: readonly string[] = [
  '--no-config',
  '--hidden',
  '--no-require-git',
  ...[...sandboxExcludedNames, ...defaultDenyPatterns].map((pattern) => `--glob=!${pattern}`),
];

/** ripgrep's arguments for files whose name matches `glob`, without overriding `.gitignore`. */
export function ripgrepTypeFilter(glob: string): string[] {
  return [`--type-add=benchglob:${glob}`, '--type=benchglob'];
}

/** `rg --version`'s first line, or undefined when rg is not on the PATH. */
export function ripgrepVersion(): string | undefined {
  const result = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  return result.error === undefined && result.status === 0 ? result.stdout.split('\n')[0] : undefined;
}

/** How many files ripgrep would search under `root` with `extra` arguments. */
export function ripgrepFileCount(root: string, extra: readonly string[] = []): number {
  const result = spawnSync('rg', ['--files', ...ripgrepWalkArguments, ...extra], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return result.stdout.split('\n').filter((line) => line !== '').length;
}

/** How many files under `root` mention `name` as a whole word, as ripgrep counts them. */
export function filesMentioning(root: string, name: string): number {
  const result = spawnSync(
    'rg',
    ['--files-with-matches', '--word-regexp', '--case-sensitive', ...ripgrepWalkArguments, '-e', name, '.'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return result.stdout.split('\n').filter((line) => line !== '').length;
}
