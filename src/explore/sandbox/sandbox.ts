import { realpathSync, statSync } from 'node:fs';
import { stat as statFile } from 'node:fs/promises';
import { isAbsolute, join, relative as relativePath, resolve as resolvePath, sep } from 'node:path';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { SandboxError } from '../errors/sandbox-error.js';
import {
  defaultDenyPatterns,
  defaultExcludedNames,
  defaultSandboxLimits,
  maxSandboxPathLength,
} from './sandbox-defaults.js';
import type { SandboxLimits } from './sandbox-defaults.js';
import { GitignoreRules } from './gitignore-rules.js';
import { createPathMatcher, matchesPathOrParent } from './path-matcher.js';
import type { PathMatcher } from './path-matcher.js';
import { walkFiles } from './walk-files.js';
import { readLineWindow } from './read-line-window.js';
import type { LineWindow } from './read-line-window.js';
import { isInsideDirectory, joinRelative, realPathOfExisting } from './sandbox-paths.js';
import { formatBytes } from './format-bytes.js';
import { openRegularFile, readRegularFile, readRegularFileSync } from './read-regular-file.js';
import { binaryError, unreadableError } from './read-errors.js';
import { textFileOf } from './text-file.js';
import type { TextFile } from './text-file.js';
import { fileListing } from './file-listing.js';
import type { FileListing } from './file-listing.js';
import { findGitRepository } from './git-repository.js';
import type { GitRepository } from './git-repository.js';

export { formatBytes };
export type { FileListing, TextFile };
export type { FileStats, ListFilesOptions, SandboxOptions } from './sandbox-options.js';
import type { FileStats, ListFilesOptions, SandboxOptions } from './sandbox-options.js';

/**
 * Confines file access to one repository root: refuses `..` escapes, absolute paths,
 * symlinks leading outside and secret files; lists files `.gitignore`-aware with build
 * output and dependencies hidden; reads text safely (binary refused, size-capped, invalid
 * UTF-8 replaced, each line of a private key block replaced by `[private key redacted]`,
 * whatever the file's name). Never writes.
 *
 * @throws {InvalidArgumentError} when `root` is not an existing directory.
 * @example
 * const sandbox = new Sandbox({ root: process.cwd() });
 * const files = await sandbox.listFiles({ pattern: '*.ts' });
 */
export class Sandbox {
  /** The real path of the root. */
  readonly root: string;
  /** The limits in force, defaults filled in. */
  readonly limits: Readonly<SandboxLimits>;
  /** The secret-file globs in force. */
  readonly deny: readonly string[];
  readonly #rules: GitignoreRules;
  readonly #isDenied: PathMatcher;
  readonly #isExcluded: PathMatcher;
  readonly #isIncluded: PathMatcher | undefined;
  readonly #allowExternalGitDir: boolean;
  /**
   * What decides `listFiles()` besides the files and `.gitignore` files on disk (include, exclude,
   * deny, the default excludes, `maxFiles`): two sandboxes over one root with the same identity
   * list the same files. The code index stores a listing under it, to reuse in a later process.
   */
  readonly listingIdentity: string;

  constructor(options: SandboxOptions) {
    let root: string;
    try {
      root = realpathSync.native(resolvePath(options.root));
      if (!statSync(root).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new InvalidArgumentError({
        argument: 'root',
        value: options.root,
        message: 'must be an existing directory (the repository root to explore).',
      });
    }
    this.root = root;
    this.limits = Object.freeze({ ...defaultSandboxLimits, ...options.limits });
    this.#rules = new GitignoreRules(root);
    this.deny = Object.freeze([...(options.deny ?? defaultDenyPatterns)]);
    this.#isDenied = createPathMatcher(this.deny, { nocase: true });
    this.#isExcluded = createPathMatcher(options.exclude ?? []);
    this.#isIncluded = options.include === undefined ? undefined : createPathMatcher(options.include);
    this.#allowExternalGitDir = options.allowExternalGitDir === true;
    this.listingIdentity = JSON.stringify([
      options.include ?? null,
      options.exclude ?? [],
      this.deny,
      [...defaultExcludedNames],
      this.limits.maxFiles,
    ]);
  }

  /**
   * The git repository of the root, for running git with `--git-dir` and `--work-tree` named
   * explicitly: the nearest `.git` at or above the root, never relocated by `core.worktree`.
   * Looked up on every call, so a repository created or removed meanwhile is seen.
   *
   * @returns `undefined` when the root is inside no git repository.
   * @throws {SandboxError} when the git data lies outside the folder holding `.git` (see
   *   `allowExternalGitDir`).
   */
  async gitRepository(): Promise<GitRepository | undefined> {
    const found = await findGitRepository(this.root, { allowExternalGitDir: this.#allowExternalGitDir });
    if (found.type === 'none') return undefined;
    if (found.type === 'found') return found.repository;
    throw new SandboxError({
      path: '.',
      message:
        `The git data of "${found.workTree}" lies outside it (${found.what} leads to "${found.target}"), so git is not run: ` +
        'it could show another repository. A linked worktree or submodule checkout looks like this; if you trust it, ' +
        'pass allowExternalGitDir: true (CLI: --allow-external-git-dir). Otherwise use list_files, read_file and search_text.',
    });
  }

  /**
   * Resolves a repo-relative path (or '.') to an absolute one inside the root. The deny list
   * is checked against the path, its parent directories, and the same for its real path
   * (so a symlink cannot reach a denied file under another name).
   *
   * @throws {SandboxError} for `..` escapes, absolute paths, symlinks leading outside the
   *   root and denied secret files.
   */
  resolve(path: string): string {
    return this.#locate(path).absolute;
  }

  /** {@link Sandbox.resolve}, also returning the repo-relative real path (symlinks followed). */
  #locate(path: string): { absolute: string; realRelative: string } {
    const given = typeof path === 'string' && path.trim() !== '' ? path.trim() : '.';
    if (given.length > maxSandboxPathLength) {
      throw new SandboxError({
        path: `${given.slice(0, 100)}…`,
        message: `Path "${given.slice(0, 60)}…" is ${given.length.toLocaleString('en-US')} characters long, over the limit of ${maxSandboxPathLength.toLocaleString('en-US')}; pass a shorter repo-relative path.`,
      });
    }
    if (
      isAbsolute(given) ||
      /^[a-zA-Z]:[\\/]/.test(given) ||
      given.startsWith('\\') ||
      given.startsWith('~')
    ) {
      throw new SandboxError({
        path: given,
        message: `Path "${given}" is absolute; pass a path relative to the repository root, e.g. "src/index.ts" or ".".`,
      });
    }
    const absolute = resolvePath(this.root, given.replace(/\\/g, '/'));
    if (!this.#isInside(absolute)) {
      throw new SandboxError({
        path: given,
        message: `Path "${given}" leads outside the repository root; only files inside it can be read. Use a path like "src/index.ts".`,
      });
    }
    const real = realPathOfExisting(absolute);
    if (!this.#isInside(real)) {
      throw new SandboxError({
        path: given,
        message: `Path "${given}" is a symlink leading outside the repository root, so it cannot be read.`,
      });
    }
    const realRelative = this.relative(real);
    for (const candidate of new Set([this.relative(absolute), realRelative])) {
      if (candidate !== '.' && matchesPathOrParent(this.#isDenied, candidate)) {
        throw new SandboxError({
          path: given,
          message: `Path "${given}" is a secret file (denied pattern) and cannot be read; explore other files instead.`,
        });
      }
    }
    return { absolute, realRelative };
  }

  /** Turns an absolute path into a repo-relative one with `/` separators ('.' for the root). */
  relative(absolutePath: string): string {
    const result = relativePath(this.root, absolutePath).split(sep).join('/');
    return result === '' ? '.' : result;
  }

  /**
   * Lists visible files under a directory, repo-relative and sorted: `.gitignore`-aware
   * (root and nested), with `.git`, `node_modules`, build output and secrets hidden.
   *
   * @throws {SandboxError} when `path` escapes the root.
   * @throws {FileReadError} when `path` does not exist.
   */
  async listFiles(options: ListFilesOptions = {}): Promise<FileListing> {
    const { absolute, realRelative: realStart } = this.#locate(options.path ?? '.');
    const start = this.relative(absolute);
    const stats = await this.stat(start);
    const patternMatcher = options.pattern === undefined ? undefined : createPathMatcher([options.pattern]);
    const matchesPattern = (relative: string): boolean => {
      if (patternMatcher === undefined) return true;
      if (patternMatcher(relative)) return true;
      return (
        start !== '.' && relative.startsWith(`${start}/`) && patternMatcher(relative.slice(start.length + 1))
      );
    };
    if (stats.isFile) {
      const files = this.isVisible(start) && matchesPattern(start) ? [start] : [];
      return fileListing(files, false, []);
    }
    if ([start, realStart].some((candidate) => this.#isExcludedWithParents(candidate))) {
      return fileListing([], false, []);
    }
    // The walk skips symlinks, so only its start can be one (or lie below one): then each
    // entry is also checked under its real path, so a link cannot dodge exclude or deny.
    const toReal =
      realStart === start
        ? undefined
        : (relative: string): string => joinRelative(realStart, relative.slice(start.length + 1));
    const result = await walkFiles({
      root: this.root,
      start: start === '.' ? '' : start,
      maxFiles: this.limits.maxFiles,
      rules: this.#rules,
      isHidden: (relative, name) =>
        this.#isHiddenByName(relative, name) ||
        (toReal !== undefined && this.#isHiddenByName(toReal(relative), name)),
      accept: (relative) =>
        this.#isIncludedPath(relative) &&
        (toReal === undefined || this.#isIncludedPath(toReal(relative))) &&
        matchesPattern(relative),
      signal: options.signal,
    });
    return fileListing(result.files, result.truncated, result.directories);
  }

  /**
   * True when `path`, or a folder above it, matches the caller's `exclude` globs, by its link
   * path or its real path. For tools that take a directory, such as `git_log`.
   *
   * @throws {SandboxError} as {@link Sandbox.resolve} does.
   */
  isExcluded(path: string): boolean {
    const { absolute, realRelative } = this.#locate(path);
    return [this.relative(absolute), realRelative].some((candidate) =>
      this.#isExcludedWithParents(candidate),
    );
  }

  /**
   * True when a repo-relative file path would be listed: not under a default-excluded
   * directory, not denied or excluded, matching `include` when given, not gitignored; a path
   * through a symlink must pass under its real path too.
   */
  isVisible(relativePath: string): boolean {
    const normalized = relativePath.replace(/\\/g, '/').replace(/^\.\//, '');
    if (normalized === '' || normalized === '.' || normalized.startsWith('../') || isAbsolute(normalized)) {
      return normalized === '.' || normalized === '';
    }
    if (!this.#passesFilters(normalized)) return false;
    const real = realPathOfExisting(join(this.root, normalized));
    if (!this.#isInside(real)) return false;
    const realRelative = this.relative(real);
    return realRelative === normalized || this.#passesFilters(realRelative);
  }

  #passesFilters(normalized: string): boolean {
    let prefix = '';
    for (const segment of normalized.split('/')) {
      prefix = prefix === '' ? segment : `${prefix}/${segment}`;
      if (this.#isHiddenByName(prefix, segment)) return false;
    }
    if (this.#isIncluded !== undefined && !this.#isIncluded(normalized)) return false;
    return !this.#rules.isIgnoredWithParents(normalized, false);
  }

  /**
   * Reads a whole text file, with the lines of any private key block (`-----BEGIN ... PRIVATE
   * KEY-----` through its `END` line) replaced by `[private key redacted]`.
   *
   * @throws {SandboxError} for paths outside the root, secrets, or files hidden by `include`/`exclude`.
   * @throws {FileReadError} when the file is missing, a directory, binary, or over `maxBytes`.
   */
  async readText(path: string, options: { readonly maxBytes?: number } = {}): Promise<TextFile> {
    const { absolute, relative } = this.#readablePath(path);
    const maxBytes = options.maxBytes ?? this.limits.maxFileBytes;
    return textFileOf(await readRegularFile(absolute, { maxBytes, root: this.root }), relative, maxBytes);
  }

  /**
   * {@link Sandbox.readText} on the calling thread, with the same checks and errors: for a caller
   * reading many small files in a row (the code index's text prefilter), where each asynchronous
   * read's round trips through the thread pool cost more than the read itself.
   */
  readTextSync(path: string, options: { readonly maxBytes?: number } = {}): TextFile {
    const { absolute, relative } = this.#readablePath(path);
    const maxBytes = options.maxBytes ?? this.limits.maxFileBytes;
    return textFileOf(readRegularFileSync(absolute, { maxBytes, root: this.root }), relative, maxBytes);
  }

  /**
   * Streams a text file once and returns the lines `startLine..endLine` (1-based, inclusive)
   * and its total line count, whatever its size. Lines over `maxLineChars` are cut; lines of a
   * private key block are redacted as {@link Sandbox.readText} does.
   *
   * @throws {SandboxError} as {@link Sandbox.readText}.
   * @throws {FileReadError} when the file is missing, a directory or binary.
   */
  async readLines(
    path: string,
    options: {
      readonly startLine: number;
      readonly endLine: number;
      readonly maxLineChars?: number;
      readonly signal?: AbortSignal;
    },
  ): Promise<LineWindow & { readonly path: string; readonly size: number }> {
    const { absolute, relative } = this.#readablePath(path);
    const opened = await openRegularFile(absolute, { root: this.root });
    if (opened.type !== 'file') throw unreadableError(opened, relative);
    // readLineWindow's stream owns the handle and closes it.
    const window = await readLineWindow(opened.handle, { maxLineChars: 2000, ...options });
    if (window.binary) throw binaryError(relative);
    return { ...window, path: relative, size: opened.stats.size };
  }

  /**
   * Stats a path inside the root.
   *
   * @throws {SandboxError} as {@link Sandbox.resolve}.
   * @throws {FileReadError} `file_not_found` when nothing is there.
   */
  async stat(path: string): Promise<FileStats> {
    const absolute = this.resolve(path);
    try {
      const stats = await statFile(absolute);
      return {
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        isFile: stats.isFile(),
        isDirectory: stats.isDirectory(),
      };
    } catch {
      throw unreadableError({ type: 'missing' }, this.relative(absolute));
    }
  }

  /** {@link Sandbox.resolve} for reading: also refuses paths outside `include` or below `exclude`. */
  #readablePath(path: string): { absolute: string; relative: string } {
    const { absolute, realRelative } = this.#locate(path);
    const relative = this.relative(absolute);
    for (const candidate of new Set([relative, realRelative])) {
      if (!this.#isIncludedPath(candidate) || this.#isExcludedWithParents(candidate)) {
        throw new SandboxError({
          path,
          message: `Path "${relative}" is outside the files this tool set may read (include/exclude settings).`,
        });
      }
    }
    return { absolute, relative };
  }

  #isIncludedPath(relative: string): boolean {
    return this.#isIncluded?.(relative) ?? true;
  }

  #isExcludedWithParents(relative: string): boolean {
    return relative !== '.' && matchesPathOrParent(this.#isExcluded, relative);
  }

  #isHiddenByName(relative: string, name: string): boolean {
    return defaultExcludedNames.has(name) || this.#isDenied(relative) || this.#isExcluded(relative);
  }

  #isInside(absolute: string): boolean {
    return isInsideDirectory(this.root, absolute);
  }
}
