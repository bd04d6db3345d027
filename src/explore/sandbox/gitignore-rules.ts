import { join } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { readRegularFileSync } from './read-regular-file.js';
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
export function readGitignore(root: string, directory: string): string | null {
  return gitignoreText(readRegularFileSync(join(root, directory, '.gitignore'), gitignoreReadOptions(root)));
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
    return this.#isIgnoredPrefix(segments, this.#rulesAlong(segments), segments.length, isDirectory);
  }

  /** Like `isIgnored`, but also true when any parent directory is ignored. */
  isIgnoredWithParents(relativePath: string, isDirectory: boolean): boolean {
    const segments = relativePath.split('/');
    const rules = this.#rulesAlong(segments);
    for (let length = 1; length < segments.length; length += 1) {
      if (this.#isIgnoredPrefix(segments, rules, length, true)) return true;
    }
    return this.#isIgnoredPrefix(segments, rules, segments.length, isDirectory);
  }

  /** The rules of each folder above the path's last segment: index `d` holds those of its first `d` segments. */
  #rulesAlong(segments: readonly string[]): (Ignore | null)[] {
    const rules: (Ignore | null)[] = [];
    let directory = '';
    for (let depth = 0; depth < segments.length; depth += 1) {
      rules.push(this.#rulesOf(directory));
      directory = depth === 0 ? (segments[0] ?? '') : `${directory}/${segments[depth] ?? ''}`;
    }
    return rules;
  }

  /** Whether the first `length` segments are ignored, by the rules of the folders above them (deeper wins). */
  #isIgnoredPrefix(
    segments: readonly string[],
    rules: readonly (Ignore | null)[],
    length: number,
    isDirectory: boolean,
  ): boolean {
    let ignored = false;
    for (let depth = 0; depth < length; depth += 1) {
      const folderRules = rules[depth];
      if (folderRules === null || folderRules === undefined) continue;
      const result = folderRules.test(segments.slice(depth, length).join('/') + (isDirectory ? '/' : ''));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  #rulesOf(directory: string): Ignore | null {
    const cached = this.#byDirectory.get(directory);
    if (cached !== undefined) return cached;
    this.remember(directory, readGitignore(this.#root, directory));
    return this.#byDirectory.get(directory) ?? null;
  }
}
