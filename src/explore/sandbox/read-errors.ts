import { SandboxError } from '../errors/sandbox-error.js';
import { FileReadError } from '../errors/file-read-error.js';
import { formatBytes } from './format-bytes.js';
import type { NotOpened } from './read-regular-file.js';

/**
 * The error for a path that is not a readable regular file: missing, a directory, a pipe or
 * device, a symlink swapped to lead outside, or over `maxBytes` for a whole read.
 */
export function unreadableError(found: NotOpened, relative: string, maxBytes = 0): Error {
  if (found.type === 'too_large') {
    return new FileReadError('file_too_large', {
      path: relative,
      message: `File "${relative}" is ${formatBytes(found.size)}, over the ${formatBytes(maxBytes)} limit for reading whole; read a line range instead (read_file with start_line and end_line) or search it with search_text.`,
    });
  }
  if (found.type === 'not_regular' && found.stats.isDirectory()) {
    return new FileReadError('not_a_file', {
      path: relative,
      message: `"${relative}" is a directory, not a file; call list_files with path "${relative}" to see its files.`,
    });
  }
  if (found.type === 'not_regular') {
    return new FileReadError('not_a_file', {
      path: relative,
      message: `"${relative}" is not a regular file (a pipe, socket or device), so it cannot be read; read source or text files instead.`,
    });
  }
  if (found.type === 'outside_root') {
    return new SandboxError({
      path: relative,
      message: `Path "${relative}" is a symlink leading outside the repository root, so it cannot be read.`,
    });
  }
  return new FileReadError('file_not_found', {
    path: relative,
    message: `No file or directory at "${relative}"; call list_files to see which paths exist.`,
  });
}

/** The error for a file with a NUL byte in its first 8 KB. */
export function binaryError(relative: string): FileReadError {
  return new FileReadError('binary_file', {
    path: relative,
    message: `File "${relative}" is binary (it has NUL bytes), so it is not shown; read source or text files instead.`,
  });
}
