import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { TraceEvent, TraceSink } from '../tracing/trace-events.js';
import { TraceFileError } from './errors/trace-file-error.js';
import { TraceEventEncoder } from './jsonl-codec.js';

/** Options of {@link createJsonlSink}. */
export interface JsonlSinkOptions {
  /**
   * Write every event exactly as emitted. Off by default: `llm_call` lines then carry only the
   * messages added since the previous call, which keeps files linear in the run's length (see
   * docs/traces.md); `readJsonl` restores them either way. @default false
   */
  readonly verbatim?: boolean;
  /** Bytes buffered before a write; `run_end` always writes. @default 262144 */
  readonly bufferBytes?: number;
}

/**
 * A trace sink that writes one JSON event per line. Use it as the `traceEmitter` (it is a
 * function) or call `write`. Events are buffered and written at every `run_end`, or sooner when
 * the buffer fills. A failing disk never breaks a run: the call that sees the failure returns a
 * rejected promise, which the orchestrator reports to `onTraceError`, and later events are dropped.
 */
export interface JsonlTraceSink extends TraceSink {
  (event: TraceEvent): void | Promise<void>;
  /** Writes what is buffered; resolves once the stream has taken it. */
  flush(): Promise<void>;
  /** Flushes, then ends the file stream the sink opened (a stream you passed is left open). */
  close(): Promise<void>;
}

/**
 * Creates a JSONL trace sink appending to the file at `target`, or writing to a `Writable`.
 *
 * @example
 * const sink = createJsonlSink('run.jsonl');
 * const orchestrator = new ToolOrchestrator(adapter, tools, { traceEmitter: sink, onTraceError: console.error });
 * await orchestrator.run(messages);
 * await sink.close();
 */
export function createJsonlSink(target: string | Writable, options: JsonlSinkOptions = {}): JsonlTraceSink {
  const ownsStream = typeof target === 'string';
  const label = ownsStream ? target : '<writable>';
  const stream = ownsStream ? createWriteStream(target, { flags: 'a' }) : target;
  const encoder = options.verbatim === true ? undefined : new TraceEventEncoder();
  const bufferBytes = options.bufferBytes ?? 262_144;
  // Lines are encoded straight into a buffer: no joined string, one copy less for the collector.
  let buffer = Buffer.allocUnsafe(bufferBytes);
  let used = 0;
  let failure: TraceFileError | undefined;
  let reported = false;
  let closed = false;

  const fail = (error: unknown): void => {
    failure ??= new TraceFileError('trace_write_failed', {
      path: label,
      message: `Could not write the trace to ${label}: ${error instanceof Error ? error.message : String(error)}. Later events are dropped; check the path and free disk space.`,
      cause: error,
    });
  };
  stream.on('error', fail);

  const writeBuffered = (): Promise<void> => {
    if (used === 0 || failure !== undefined) return Promise.resolve();
    const bytes = buffer.subarray(0, used);
    buffer = Buffer.allocUnsafe(bufferBytes);
    used = 0;
    return writeBytes(bytes);
  };

  const writeBytes = (bytes: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      stream.write(bytes, (error) => {
        if (error) {
          fail(error);
          reject(failure);
        } else resolve();
      });
    });

  const append = (line: string): void => {
    // At most 3 bytes a UTF-16 unit, plus the newline.
    if (used + line.length * 3 + 1 > buffer.length) {
      writeBuffered().catch(() => undefined);
      if (line.length * 3 + 1 > buffer.length) {
        writeBytes(Buffer.from(`${line}\n`)).catch(() => undefined);
        return;
      }
    }
    used += buffer.write(line, used);
    buffer[used++] = 0x0a;
  };

  /** The first failure goes to the caller once (the orchestrator hands it to `onTraceError`). */
  const reportOnce = (error: unknown): Promise<void> => {
    if (reported) return Promise.resolve();
    reported = true;
    return Promise.reject(error);
  };

  const write = (event: TraceEvent): void | Promise<void> => {
    if (closed) {
      return Promise.reject(
        new TraceFileError('trace_write_failed', {
          path: label,
          message: `The ${event.type} event (seq ${event.seq} of run ${event.runId}) came after the sink for ${label} was closed, so it is not in the file. Close the sink only after the runs that use it have ended.`,
        }),
      );
    }
    if (failure !== undefined) return reportOnce(failure);
    let line: string;
    try {
      line = JSON.stringify(encoder === undefined ? event : encoder.encode(event));
    } catch (error) {
      throw new TraceFileError('trace_write_failed', {
        path: label,
        message: `The ${event.type} event (seq ${event.seq} of run ${event.runId}) could not be serialized to JSON, so it is not in ${label}: ${error instanceof Error ? error.message : String(error)}.`,
        cause: error,
      });
    }
    // A failed write is remembered and reported by the next call.
    append(line);
    return event.type === 'run_end' ? writeBuffered().catch(reportOnce) : undefined;
  };

  const flush = async (): Promise<void> => {
    await writeBuffered();
    if (failure !== undefined) throw failure;
  };

  const sink = ((event: TraceEvent) => write(event)) as JsonlTraceSink;
  sink.write = write;
  sink.flush = flush;
  sink.close = async () => {
    if (closed) return;
    try {
      await flush();
    } finally {
      closed = true;
      if (ownsStream) await new Promise<void>((resolve) => stream.end(() => resolve()));
    }
  };
  return sink;
}
