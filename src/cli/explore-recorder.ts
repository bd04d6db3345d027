import type { TraceEvent } from '../tracing/trace-events.js';
import { traceContentText } from '../tracing/cap-trace-text.js';
import { summarizeToolOutput } from './progress-text.js';

/** One tool call of the explorer, as the CLI reports it after an interrupt. */
export interface RecordedToolCall {
  readonly name: string;
  readonly arguments: string;
  /** The result's first line, or the error. */
  readonly result: string;
  readonly ok: boolean;
}

/** Keeps what an explore run has done so far, from its trace events: for the summary line and for Ctrl-C. */
export class ExploreRecorder {
  readonly toolCalls: RecordedToolCall[] = [];
  /** Model calls of the explorer run (the report call included, the repair call not). */
  turns = 0;
  /** Repair calls made after a report that missed its schema. */
  repairCalls = 0;
  totalTokens = 0;
  /** True while a run has started and not yet sent `run_end`. */
  openRuns = 0;
  /** `run_end` events seen. */
  endedRuns = 0;
  readonly #runIds: string[] = [];
  /** True between an `output_invalid` warning and the repair call it announces. */
  #repairNext = false;
  readonly #arguments = new Map<string, string>();

  /** The trace sink. */
  readonly handle = (event: TraceEvent): void => {
    switch (event.type) {
      case 'run_start':
        this.#runIds.push(event.runId);
        this.openRuns++;
        break;
      case 'warning':
        if (event.data.code === 'output_invalid') this.#repairNext = true;
        break;
      case 'llm_call':
        if (this.#repairNext) {
          this.repairCalls++;
          this.#repairNext = false;
        } else if (event.runId === this.#runIds[0]) {
          this.turns++;
        }
        this.totalTokens += event.data.usage?.totalTokens ?? 0;
        break;
      case 'tool_call':
        this.#arguments.set(event.data.toolCall.id, event.data.toolCall.function.arguments);
        break;
      case 'tool_result':
        this.toolCalls.push({
          name: event.data.name,
          arguments: this.#arguments.get(event.data.toolCallId) ?? '',
          result: event.data.error ?? summarizeToolOutput(traceContentText(event.data.content)),
          ok: event.data.error === undefined,
        });
        break;
      case 'run_end':
        this.openRuns--;
        this.endedRuns++;
        break;
      default:
        break;
    }
  };
}
