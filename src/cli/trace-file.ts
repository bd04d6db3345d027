import { createWriteStream, openSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { TraceEvent } from '../tracing/trace-events.js';
import { UsageError } from './cli-io.js';
import { describeFileError } from './flag-values.js';

/** The `--trace` file: one JSON event a line. */
export interface TraceFile {
  readonly path: string;
  readonly write: (event: TraceEvent) => void;
  /** Flushes and closes the file; resolves to why writing failed, or `undefined` when it did not. */
  readonly close: () => Promise<string | undefined>;
}

/**
 * Opens (creates or empties) the `--trace` file now, before any model call, so a path that cannot be
 * written is a usage error up front rather than a crash mid-run.
 *
 * @throws {UsageError} `trace_file`: `cannot write --trace file PATH: reason`.
 */
export function openTraceFile(path: string): TraceFile {
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    throw new UsageError(`cannot write --trace file ${path}: ${describeFileError(error)}`, {
      code: 'trace_file',
    });
  }
  const stream = createWriteStream(path, { fd });
  let failure: string | undefined;
  stream.on('error', (error) => {
    failure ??= describeFileError(error);
  });
  return {
    path,
    write: (event) => {
      if (failure === undefined) stream.write(`${JSON.stringify(event)}\n`);
    },
    close: async () => {
      stream.end();
      await finished(stream).catch(() => undefined);
      return failure;
    },
  };
}
