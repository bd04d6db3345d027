import { readdirSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { inTimeSlices } from '../../shared/time-slices.js';
import { join } from 'node:path';
import { readGitignore } from './gitignore-rules.js';
import type { GitignoreRules } from './gitignore-rules.js';

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  /** Absolute real path of the repository root. */
  readonly root: string;
  /** Repo-relative directory to start from; '' for the root. */
  readonly start: string;
  /** Stop after this many accepted files and flag the result truncated. */
  readonly maxFiles: number;
  readonly rules: GitignoreRules;
  /** True for an entry hidden by default excludes, deny or caller excludes (gitignore is checked here). */
  readonly isHidden: (relativePath: string, name: string, isDirectory: boolean) => boolean;
  /** True for a visible file the caller wants listed (include globs, a pattern). */
  readonly accept: (relativePath: string) => boolean;
  readonly signal?: AbortSignal | undefined;
}

/** The files a walk found, repo-relative and sorted, whether it stopped at the cap, and the directories it read. */
export interface WalkResult {
  readonly files: string[];
  readonly truncated: boolean;
  /** Repo-relative directories whose entries were read ('' for the root), in walk order. */
  readonly directories: string[];
}

/**
 * Walks a tree breadth-first, pruning hidden and ignored directories. Directories (and their
 * `.gitignore`) are read with synchronous calls in time slices: thousands of them cost less so
 * than as thread-pool round trips, and other work still runs between slices. Symlinks are skipped, as ripgrep does
 * by default, so a link cannot lead a walk outside the root or into a cycle.
 */
export async function walkFiles(options: WalkOptions): Promise<WalkResult> {
  const files: string[] = [];
  // Bound the work even when a pattern accepts few of many files.
  const maxVisited = options.maxFiles * 10;
  let visited = 0;
  const directories: string[] = [];
  let level = [options.start];
  while (level.length > 0) {
    directories.push(...level);
    const listings: Dirent[][] = [];
    await inTimeSlices(level, (directory) => listings.push(readDirectory(options, directory)), {
      signal: options.signal,
    });
    const next: string[] = [];
    for (const [index, entries] of listings.entries()) {
      const directory = level[index] ?? '';
      for (const entry of entries) {
        const relativePath = directory === '' ? entry.name : `${directory}/${entry.name}`;
        const isDirectory = entry.isDirectory();
        if (!isDirectory && !entry.isFile()) continue;
        if (options.isHidden(relativePath, entry.name, isDirectory)) continue;
        if (options.rules.isIgnored(relativePath, isDirectory)) continue;
        visited += 1;
        if (visited > maxVisited) return { files: files.sort(), truncated: true, directories };
        if (isDirectory) next.push(relativePath);
        else if (options.accept(relativePath)) {
          if (files.length === options.maxFiles) return { files: files.sort(), truncated: true, directories };
          files.push(relativePath);
        }
      }
    }
    level = next;
  }
  return { files: files.sort(), truncated: false, directories };
}

function readDirectory(options: WalkOptions, directory: string): Dirent[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(options.root, directory), { withFileTypes: true });
  } catch {
    return []; // unreadable or vanished mid-walk: skip rather than fail the listing
  }
  let gitignore: string | null = null;
  if (entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
    gitignore = readGitignore(options.root, directory);
  }
  options.rules.remember(directory, gitignore);
  return entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}
