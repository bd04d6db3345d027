import { homedir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '../../../errors/invalid-argument-error.js';

/** Where and how large the code index's on-disk parse cache is. */
export interface ParseCacheOptions {
  /**
   * The folder holding the cache; created when missing. Several repositories and processes can share it.
   * @default `$TOOL_ORCHESTRATOR_CACHE_DIR`, else the platform's user cache folder + `tool-orchestrator` (see {@link defaultCacheDirectory})
   */
  readonly directory?: string;
  /** The most bytes the cache may hold; the least recently used entries are deleted past it. @default 256 MiB */
  readonly maxBytes?: number;
}

/** The cache with its defaults filled in. */
export interface ResolvedParseCacheOptions {
  readonly directory: string;
  readonly maxBytes: number;
}

/** The default size cap of the parse cache: 256 MiB. */
export const defaultCacheMaxBytes = 256 * 1024 * 1024;

/**
 * The user cache folder for this package: `$TOOL_ORCHESTRATOR_CACHE_DIR` when set, else
 * `$XDG_CACHE_HOME/tool-orchestrator` or `~/.cache/tool-orchestrator` on Linux,
 * `~/Library/Caches/tool-orchestrator` on macOS, `%LOCALAPPDATA%\tool-orchestrator` on Windows.
 */
export function defaultCacheDirectory(
  environment: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = environment['TOOL_ORCHESTRATOR_CACHE_DIR'];
  if (override !== undefined && override !== '') return override;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'tool-orchestrator');
  if (platform === 'win32') {
    return join(environment['LOCALAPPDATA'] ?? join(home, 'AppData', 'Local'), 'tool-orchestrator');
  }
  const xdg = environment['XDG_CACHE_HOME'];
  return join(xdg !== undefined && xdg.startsWith('/') ? xdg : join(home, '.cache'), 'tool-orchestrator');
}

/**
 * `false` turns the cache off (`undefined`); `true`, `undefined` or an object get the defaults filled in.
 *
 * @throws {InvalidArgumentError} when `directory` is not a non-empty string or `maxBytes` not a positive number.
 */
export function resolveParseCacheOptions(
  options: ParseCacheOptions | boolean | undefined,
): ResolvedParseCacheOptions | undefined {
  if (options === false) return undefined;
  const given = typeof options === 'object' && options !== null ? options : {};
  const { directory = defaultCacheDirectory(), maxBytes = defaultCacheMaxBytes } = given;
  if (typeof directory !== 'string' || directory === '') {
    throw new InvalidArgumentError({
      argument: 'cache.directory',
      value: directory,
      message: 'must be a folder path; leave it out for the user cache folder, or pass `cache: false`.',
    });
  }
  if (typeof maxBytes !== 'number' || !(maxBytes > 0)) {
    throw new InvalidArgumentError({
      argument: 'cache.maxBytes',
      value: maxBytes,
      message:
        'must be a positive number of bytes, such as 268435456 (256 MiB); pass `cache: false` to turn the cache off.',
    });
  }
  return { directory, maxBytes };
}
