import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { TraceEvent } from '../tracing/trace-events.js';
import { TraceFileError } from './errors/trace-file-error.js';
import { TraceEventDecoder } from './jsonl-codec.js';

/**
 * Reads a JSONL trace file back into events, as the run emitted them: the compact `llm_call`
 * lines of {@link createJsonlSink} get their whole transcript back. Blank lines are skipped, and so
 * is a torn last line (a process that died mid-write). Files written verbatim, such as
 * `tool-orchestrator explore --trace`, read the same way. Event types this version does not know are
 * returned as they are.
 *
 * @throws {TraceFileError} `trace_read_failed` when the file cannot be read, `trace_line_invalid`
 * for a line before the last that is not a JSON object with a string `type`.
 */
export async function readJsonl(path: string): Promise<TraceEvent[]> {
  const decoder = new TraceEventDecoder();
  const events: TraceEvent[] = [];
  let invalid: { line: number; reason: string } | undefined;
  let lineNumber = 0;
  let lastContentLine = 0;
  try {
    const lines = createInterface({
      input: createReadStream(path, { encoding: 'utf8' }),
      crlfDelay: Infinity,
    });
    for await (const text of lines) {
      lineNumber++;
      if (text.trim() === '') continue;
      lastContentLine = lineNumber;
      // Only the last line may be torn: an earlier bad line is an error once another line follows.
      if (invalid !== undefined) break;
      const parsed = parseEvent(text);
      if (typeof parsed === 'string') invalid = { line: lineNumber, reason: parsed };
      else events.push(decoder.decode(parsed));
    }
  } catch (error) {
    throw new TraceFileError('trace_read_failed', {
      path,
      message: `Could not read the trace file ${path}: ${error instanceof Error ? error.message : String(error)}.`,
      cause: error,
    });
  }
  if (invalid !== undefined && invalid.line !== lastContentLine) {
    throw new TraceFileError('trace_line_invalid', {
      path,
      line: invalid.line,
      message: `Line ${invalid.line} of ${path} is not a trace event (${invalid.reason}). Only a torn last line is skipped; is this a JSONL trace written by createJsonlSink or --trace?`,
    });
  }
  return events;
}

/** The parsed line, or why it is not an event. */
function parseEvent(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  if (typeof (value as { type?: unknown }).type !== 'string') return 'no string "type" field';
  return value as Record<string, unknown>;
}
