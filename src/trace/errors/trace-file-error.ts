import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';

/** What went wrong with a trace file, as `code` values. */
export type TraceFileErrorCode = 'trace_write_failed' | 'trace_read_failed' | 'trace_line_invalid';

/** Options of {@link TraceFileError}. */
export interface TraceFileErrorOptions {
  /** The file, or a description of the stream, e.g. `'<writable>'`. */
  readonly path: string;
  /** The 1-based line, for a line that is not a trace event. */
  readonly line?: number;
  /** What went wrong and what to do. */
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * A JSONL trace file could not be written or read: the disk failed, the file is missing, or a line
 * in the middle is not a trace event. A run never throws it: the sink reports it to `onTraceError`.
 */
export class TraceFileError extends ToolOrchestratorError {
  readonly path: string;
  /** The 1-based line number, for `trace_line_invalid`. */
  readonly line: number | undefined;
  declare readonly code: TraceFileErrorCode;

  constructor(code: TraceFileErrorCode, options: TraceFileErrorOptions) {
    super(code, { message: options.message, cause: options.cause });
    this.path = options.path;
    this.line = options.line;
  }
}
