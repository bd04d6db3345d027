/**
 * One trace sink on S3 (200 turns, one 2 KB result each) in a fresh process: verify, warm up, time
 * whole runs, then measure allocation. Prints one JSON line (a `SinkChildResult`) on stdout.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { SpanKind, context, trace } from '@opentelemetry/api';
import type { Context, Span, Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { TraceEmitter } from 'tool-orchestrator';
import { createOtelSink } from 'tool-orchestrator/otel';
import { createJsonlSink } from 'tool-orchestrator/trace';
import { prepareOurs } from '../loop/libraries/ours.js';
import { Script, buildScenario } from '../loop/scenarios.js';
import { collectGarbage, mean, measureAllocation } from '../measure.js';

export type SinkVariant = 'none' | 'otel' | 'otel-bare' | 'jsonl' | 'jsonl-discard';

export interface SinkChildOptions {
  readonly variant: SinkVariant;
  readonly warmupMs: number;
  readonly minWarmupRuns: number;
  readonly timedMs: number;
  readonly minTimedRuns: number;
  readonly allocationRuns: number;
}

export interface SinkChildResult {
  readonly variant: SinkVariant;
  readonly ok: boolean;
  readonly failure?: string;
  readonly timedRuns?: number;
  /** Mean over the timed runs (garbage collection included, as in the loop benchmark). */
  readonly microsecondsPerTurn?: number;
  readonly bytesAllocatedPerRun?: number;
  /** What one run leaves behind: spans exported, or bytes added to the file. */
  readonly outputPerRun?: number;
}

interface Variant {
  readonly traceEmitter: TraceEmitter | undefined;
  /** After each run, inside the timed region: what a user of the sink also pays. */
  readonly afterRun: () => void;
  /** Spans or bytes written so far. */
  readonly output: () => number;
  readonly close: () => Promise<void>;
}

/**
 * The least any OpenTelemetry sink pays: the same spans, parented the same way, with names and
 * times only (no attributes, no tool-call timing, no error handling).
 */
function bareSpans(tracer: Tracer): TraceEmitter {
  const runs = new Map<string, { span: Span; context: Context }>();
  return (event) => {
    const run = runs.get(event.runId);
    if (event.type === 'run_start') {
      const span = tracer.startSpan('invoke_agent', { startTime: event.timestamp });
      runs.set(event.runId, { span, context: trace.setSpan(context.active(), span) });
    } else if (run === undefined) {
      return;
    } else if (event.type === 'llm_call') {
      tracer
        .startSpan(
          'chat',
          { kind: SpanKind.CLIENT, startTime: event.timestamp - event.data.durationMs },
          run.context,
        )
        .end(event.timestamp);
    } else if (event.type === 'tool_result') {
      tracer
        .startSpan(
          `execute_tool ${event.data.name}`,
          { startTime: event.timestamp - event.data.durationMs },
          run.context,
        )
        .end(event.timestamp);
    } else if (event.type === 'run_end') {
      run.span.end(event.timestamp);
      runs.delete(event.runId);
    }
  };
}

function variant(name: SinkVariant, directory: string): Variant {
  if (name === 'otel' || name === 'otel-bare') {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('bench');
    let exported = 0;
    return {
      traceEmitter:
        name === 'otel'
          ? createOtelSink({ tracer, provider: 'bench', model: 'bench-model' })
          : bareSpans(tracer),
      afterRun: () => {
        exported += exporter.getFinishedSpans().length;
        exporter.reset();
      },
      output: () => exported,
      close: () => provider.shutdown(),
    };
  }
  if (name === 'jsonl-discard') {
    // The same sink into a stream that drops the bytes: serialization without the disk.
    let bytes = 0;
    const sink = createJsonlSink(
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback();
        },
      }),
    );
    return { traceEmitter: sink, afterRun: () => undefined, output: () => bytes, close: () => sink.close() };
  }
  if (name === 'jsonl') {
    const path = join(directory, 'run.jsonl');
    const sink = createJsonlSink(path);
    return {
      traceEmitter: sink,
      afterRun: () => undefined,
      output: () => {
        try {
          return statSync(path).size;
        } catch {
          return 0;
        }
      },
      close: () => sink.close(),
    };
  }
  return {
    traceEmitter: undefined,
    afterRun: () => undefined,
    output: () => 0,
    close: async () => undefined,
  };
}

async function measure(options: SinkChildOptions): Promise<SinkChildResult> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-sink-'));
  const base = { variant: options.variant };
  try {
    const script = new Script(buildScenario('S3-200'));
    const sink = variant(options.variant, directory);
    const play = await prepareOurs(script, {
      via: 'run',
      ...(sink.traceEmitter === undefined ? {} : { options: { traceEmitter: sink.traceEmitter } }),
    });
    const run = async (): Promise<void> => {
      script.reset();
      const text = await play();
      sink.afterRun();
      // One turn of the event loop, timed, for every variant: a run of the scripted model is all
      // microtasks, so without it the timers and I/O callbacks a sink schedules (the in-memory
      // exporter answers each export with a setTimeout) would pile up over the whole timed loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (text !== script.scenario.finalText) throw new Error(`final text was ${JSON.stringify(text)}`);
    };
    await run();
    // What one run leaves behind (the file stream writes asynchronously: let it finish).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const outputPerRun = sink.output();
    if (options.variant.startsWith('otel') && outputPerRun !== 1 + 201 + 200) {
      throw new Error(`expected 402 spans for one run, got ${outputPerRun}`);
    }
    const warmupStart = performance.now();
    for (
      let runs = 0;
      runs < options.minWarmupRuns || performance.now() - warmupStart < options.warmupMs;
      runs++
    )
      await run();
    collectGarbage();
    const durations: number[] = [];
    const timedStart = performance.now();
    while (durations.length < options.minTimedRuns || performance.now() - timedStart < options.timedMs) {
      const started = performance.now();
      await run();
      durations.push(performance.now() - started);
    }
    const allocation = await measureAllocation(async () => {
      for (let index = 0; index < options.allocationRuns; index++) await run();
    });
    await sink.close();
    const turns = script.scenario.turns.length;
    return {
      ...base,
      ok: true,
      timedRuns: durations.length,
      microsecondsPerTurn: (mean(durations) * 1000) / turns,
      bytesAllocatedPerRun: allocation.bytes / options.allocationRuns,
      outputPerRun,
    };
  } catch (error) {
    return { ...base, ok: false, failure: (error as Error).message };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as SinkChildOptions;
measure(options).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  },
);
