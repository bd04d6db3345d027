import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidArgumentError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { TraceEvent, TraceEventOf } from '../../src/index.js';
import { createOtelSink } from '../../src/otel.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { createJsonlSink, readJsonl } from '../../src/trace.js';

const bigText = 'x'.repeat(5_000_000);
const bigRows = Array.from({ length: 50_000 }, (_, index) => ({ index, name: `row ${index}` }));

const tools = {
  dump_text: defineTool({
    name: 'dump_text',
    description: 'Returns a huge text',
    parameters: z.object({}),
    execute: () => bigText,
  }),
  dump_rows: defineTool({
    name: 'dump_rows',
    description: 'Returns a huge array',
    parameters: z.object({}),
    execute: () => bigRows,
  }),
  small: defineTool({
    name: 'small',
    description: 'Returns a small object',
    parameters: z.object({}),
    execute: () => ({ ok: true }),
  }),
  fail: defineTool({
    name: 'fail',
    description: 'Throws a huge message',
    parameters: z.object({}),
    execute: () => {
      throw new Error(bigText);
    },
  }),
};

const script = () =>
  new ScriptedAdapter([
    ScriptedAdapter.toolCalls([
      ['dump_text', {}, 't'],
      ['dump_rows', {}, 'r'],
      ['small', {}, 's'],
      ['fail', {}, 'f'],
    ]),
    ScriptedAdapter.text('done'),
  ]);

const results = (traces: readonly TraceEvent[]) =>
  traces.filter((event): event is TraceEventOf<'tool_result'> => event.type === 'tool_result');

describe('trace events honour a cap on the texts they carry', () => {
  it('cuts tool results, content and errors in traces, JSONL and OpenTelemetry, and marks the cut', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trace-cap-'));
    try {
      const path = join(dir, 'run.jsonl');
      const jsonl = createJsonlSink(path);
      const exporter = new InMemorySpanExporter();
      const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const otel = createOtelSink({ tracer: provider.getTracer('test'), captureContent: true });
      const orchestrator = new ToolOrchestrator(script(), tools, {
        maxToolResultChars: 1_000,
        traceEmitter: (event) => {
          jsonl(event);
          otel(event);
        },
      });
      const result = await orchestrator.run([{ role: 'user', content: 'dump' }]);
      await jsonl.close();

      // The model got 1,000 characters and a marker; the transcript is what it got.
      const sent = result.messages.filter((message) => message.role === 'tool');
      for (const message of sent) expect(message.content.length).toBeLessThan(1_200);

      const [text, rows, small, failed] = results(result.traces);
      const defaultCap = 200_000;
      expect(typeof text!.data.result).toBe('string');
      expect((text!.data.result as string).length).toBeLessThan(defaultCap + 200);
      expect(text!.data.result).toMatch(
        /\[trace cut: 4800000 of 5000000 characters left out \(maxTraceChars\)\]$/,
      );
      // A value whose JSON passes the cap is carried as its cut JSON text.
      expect(typeof rows!.data.result).toBe('string');
      expect(rows!.data.result).toMatch(/^\[\{"index":0,"name":"row 0"\}/);
      expect(rows!.data.result).toMatch(/\[trace cut: \d+ of \d+ characters left out \(maxTraceChars\)\]$/);
      // A small value is carried as it is.
      expect(small!.data.result).toEqual({ ok: true });
      expect(failed!.data.error!.length).toBeLessThan(defaultCap + 200);
      expect(failed!.data.content.length).toBeLessThan(1_200);
      expect(JSON.stringify(result.traces).length).toBeLessThan(1_000_000);

      // The JSONL file and the spans carry the same cut texts.
      expect((await stat(path)).size).toBeLessThan(1_000_000);
      const read = await readJsonl(path);
      expect(results(read).map((event) => event.data.result)).toEqual(
        [text, rows, small, failed].map((event) => event!.data.result),
      );
      const spans = exporter.getFinishedSpans();
      const attributes = JSON.stringify(spans.map((span) => span.attributes));
      expect(attributes.length).toBeLessThan(1_000_000);
      expect(attributes).toContain('dump_text');
      expect(await readFile(path, 'utf8')).toContain('trace cut');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes maxTraceChars, and leaves the transcript and what the model receives alone', async () => {
    const orchestrator = new ToolOrchestrator(script(), tools, { maxTraceChars: 50 });
    const result = await orchestrator.run([{ role: 'user', content: 'dump' }]);
    const [text, rows, small] = results(result.traces);
    expect(text!.data.result).toBe(
      `${'x'.repeat(50)}\n[trace cut: 4999950 of 5000000 characters left out (maxTraceChars)]`,
    );
    expect(text!.data.content).toMatch(
      /^x{50}\n\[trace cut: \d+ of \d+ characters left out \(maxTraceChars\)\]$/,
    );
    expect((rows!.data.result as string).startsWith('[{"index":0,"name":"row 0"},{"inde')).toBe(true);
    expect(small!.data.result).toEqual({ ok: true });
    // contentLength is what the model received; the model's content is cut by maxToolResultChars only.
    const toolMessage = result.messages.find((message) => message.role === 'tool');
    expect(text!.data.contentLength).toBe(toolMessage!.content.length);
    expect(toolMessage!.content.length).toBeGreaterThan(100_000);
    expect(() => new ToolOrchestrator(script(), tools, { maxTraceChars: 0 })).toThrow(InvalidArgumentError);
    expect(() => new ToolOrchestrator(script(), tools, { maxTraceChars: 0 })).toThrow(/maxTraceChars \(0\)/);
  });
});
