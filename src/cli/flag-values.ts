import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './cli-io.js';

/**
 * Checks of flag values. Each throws a {@link UsageError} (`invalid_flag_value`, exit 2) that names the
 * flag, the value and the fix. `source` names where the value came from when it was not the flag
 * itself, e.g. the environment variable `TOOL_ORCHESTRATOR_BASE_URL`.
 */

/** Why a file operation failed, in words, from its `code`; the system's message otherwise. */
export function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** `--repo DIR`: an existing folder; returns its absolute path. */
export function repoFlag(value: string): string {
  const absolute = resolve(value);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch (error) {
    const problem =
      (error as { code?: unknown }).code === 'ENOENT'
        ? `does not exist${absolute === value ? '' : ` (${absolute})`}`
        : `cannot be read: ${describeFileError(error)}`;
    throw new UsageError(
      `--repo ${JSON.stringify(value)} ${problem}. Pass the folder of the repository to explore, e.g. --repo . for the current directory.`,
      { code: 'invalid_flag_value' },
    );
  }
  if (!isDirectory) {
    throw new UsageError(
      `--repo ${JSON.stringify(value)} is a file. Pass the folder that holds the repository, e.g. --repo .`,
      { code: 'invalid_flag_value' },
    );
  }
  return absolute;
}

/** `--base-url URL`: an absolute http(s) URL; suggests the `http://` form for `127.0.0.1:8787`. */
export function baseUrlFlag(value: string, source = '--base-url'): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  // `localhost:8787` parses, with `localhost:` as its scheme.
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const guess = /^[\w.-]+(:\d+)?(\/.*)?$/.test(value)
      ? ` Did you mean ${source === '--base-url' ? '--base-url ' : `${source}=`}http://${value}?`
      : '';
    throw new UsageError(
      `${source} ${JSON.stringify(value)} is not an http:// or https:// URL.${guess} For a local server it looks like http://127.0.0.1:11434/v1.`,
      { code: 'invalid_flag_value' },
    );
  }
  return value;
}

/** A whole number of at least 1, e.g. `--max-turns 10`. */
export function positiveIntegerFlag(flag: string, value: string, example: string): number {
  const number = Number(value);
  if (!(value.trim() !== '' && Number.isInteger(number) && number >= 1)) {
    throw new UsageError(
      `${flag} ${JSON.stringify(value)} must be a whole number of at least 1, e.g. ${flag} ${example}.`,
      {
        code: 'invalid_flag_value',
      },
    );
  }
  return number;
}

/** One of a few words, e.g. `--depth normal`. */
export function choiceFlag<const Choice extends string>(
  flag: string,
  value: string,
  choices: readonly Choice[],
  source = flag,
): Choice {
  if ((choices as readonly string[]).includes(value)) return value as Choice;
  const listed = `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
  throw new UsageError(`${source} ${JSON.stringify(value)} must be ${listed}, e.g. ${flag} ${choices[0]}.`, {
    code: 'invalid_flag_value',
  });
}
