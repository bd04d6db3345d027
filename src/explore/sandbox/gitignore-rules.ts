import { join } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { readRegularFile, readRegularFileSync } from './read-regular-file.js';
import type { RegularFileRead } from './read-regular-file.js';

/** A larger `.gitignore` is treated as absent, so a hostile one cannot cost much memory. */
export const maxGitignoreBytes = 1024 * 1024;

/**
 * How a `.gitignore` is read: a regular file inside the root, not a symlink (git does not follow
 * a symlinked `.gitignore` either), at most {@link maxGitignoreBytes}. A FIFO, device or link to
 * one counts as no file, so it can neither block the process nor feed it an endless read.
 */
function gitignoreReadOptions(root: string) {
  return { root, maxBytes: maxGitignoreBytes, noFollow: true } as const;
}

function gitignoreText(read: RegularFileRead): string | null {
  return read.type === 'file' ? read.bytes.toString('utf8') : null;
}

/** Reads the `.gitignore` of a repo-relative directory ('' for the root); null when it has none. */
export async function readGitignore(root: string, directory: string): Promise<string | null> {
  return gitignoreText(
    await readRegularFile(join(root, directory, '.gitignore'), gitignoreReadOptions(root)),
  );
}

/**
 * The `.gitignore` files of one tree, each applied to the paths below its own directory,
 * deeper files overriding shallower ones (so a nested `!pattern` re-includes). Files are
 * read once and cached; `forget()` drops the cache so the next walk sees edits.
 */
export class GitignoreRules {
  readonly #root: string;
  /** Repo-relative directory ('' for the root) -> its rules, or null when it has none. */
  readonly #byDirectory = new Map<string, Ignore | null>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Records a directory's `.gitignore` text read by a walk (null: it has none). */
  remember(directory: string, text: string | null): void {
    this.#byDirectory.set(directory, text === null ? null : ignore().add(text));
  }

  /** Drops every cached `.gitignore`. */
  forget(): void {
    this.#byDirectory.clear();
  }

  /**
   * True when `relativePath` (repo-relative, `/`-separated) is ignored by the `.gitignore`
   * files of its ancestors. Parent directories are not checked: walks prune them first;
   * `isIgnoredWithParents` checks them too.
   */
  isIgnored(relativePath: string, isDirectory: boolean): boolean {
    const segments = relativePath.split('/');
    let ignored = false;
    for (let depth = 0; depth < segments.length; depth += 1) {
      const directory = segments.slice(0, depth).join('/');
      const rules = this.#rulesOf(directory);
      if (rules === null) continue;
      const below = segments.slice(depth).join('/') + (isDirectory ? '/' : '');
      const result = rules.test(below);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  /** Like `isIgnored`, but also true when any parent directory is ignored. */
  isIgnoredWithParents(relativePath: string, isDirectory: boolean): boolean {
    const segments = relativePath.split('/');
    for (let depth = 1; depth < segments.length; depth += 1) {
      if (this.isIgnored(segments.slice(0, depth).join('/'), true)) return true;
    }
    return this.isIgnored(relativePath, isDirectory);
  }

  #rulesOf(directory: string): Ignore | null {
    const cached = this.#byDirectory.get(directory);
    if (cached !== undefined) return cached;
    const path = join(this.#root, directory, '.gitignore');
    this.remember(directory, gitignoreText(readRegularFileSync(path, gitignoreReadOptions(this.#root))));
    return this.#byDirectory.get(directory) ?? null;
  }
}
