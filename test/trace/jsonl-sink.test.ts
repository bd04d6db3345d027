import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator } from '../../src/orchestrator/tool-orchestrator.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { TraceFileError, createJsonlSink, readJsonl } from '../../src/trace.js';
import { runTracedScenario } from '../support/traced-scenario.js';
import { until } from '../support/until.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'jsonl-sink-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Events as plain JSON, the way any reader of the file sees them. */
const plain = (events: readonly unknown[]): unknown => JSON.parse(JSON.stringify(events));

function pageRun(turns: number, traceEmitter: (event: TraceEvent) => void | Promise<void>) {
  const page = defineTool({
    name: 'page',
    description: 'A page of text.',
    parameters: z.object({ page: z.number() }),
    execute: ({ page: number }) => `page ${number}: ${'x'.repeat(2000)}`,
  });
  const script = [
    ...Array.from({ length: turns }, (_, turn) =>
      ScriptedAdapter.toolCalls([['page', { page: turn }, `call_${turn}`]]),
    ),
    ScriptedAdapter.text('done'),
  ];
  return new ToolOrchestrator(
    new ScriptedAdapter(script),
    { page },
    {
      maxTurns: turns + 1,
      traceEmitter,
    },
  ).run([{ role: 'user', content: 'read the pages' }], 'You read pages.');
}

describe('createJsonlSink and readJsonl', () => {
  it('round-trips a run with a subagent, parallel tools and errors: readJsonl returns what was emitted', async () => {
    const path = join(directory, 'scenario.jsonl');
    const sink = createJsonlSink(path);
    const events = await runTracedScenario(sink);
    await sink.close();
    const read = await readJsonl(path);
    expect(read).toHaveLength(events.length);
    expect(plain(read)).toEqual(plain(events));
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(events.length);
    expect(lines.every((line) => (JSON.parse(line) as { type: string }).type !== undefined)).toBe(true);
  });

  it('keeps files linear: llm_call lines hold only the new messages, and no 2 KB result is written twice', async () => {
    const compact = join(directory, 'compact.jsonl');
    const verbatim = join(directory, 'verbatim.jsonl');
    const compactSink = createJsonlSink(compact);
    const verbatimSink = createJsonlSink(verbatim, { verbatim: true });
    const events: TraceEvent[] = [];
    await pageRun(40, (event) => {
      events.push(event);
      compactSink(event);
      verbatimSink(event);
    });
    await Promise.all([compactSink.close(), verbatimSink.close()]);
    const compactBytes = (await stat(compact)).size;
    const verbatimBytes = (await stat(verbatim)).size;
    // 40 results of 2 KB: each written once (the verbatim file holds each ~20 times, in every later llm_call).
    expect(compactBytes).toBeLessThan(40 * 2100 + 40 * 1200);
    expect(verbatimBytes).toBeGreaterThan(10 * compactBytes);
    const lines = (await readFile(compact, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const calls = lines.filter((line) => line.type === 'llm_call');
    expect(calls[0].data.messagesOffset).toBe(0);
    expect(calls[0].data.messages.map((message: { role: string }) => message.role)).toEqual([
      'system',
      'user',
    ]);
    expect(calls[1].data.messagesOffset).toBe(2);
    expect(calls[1].data.messages).toEqual([
      expect.objectContaining({ role: 'assistant' }),
      { role: 'tool', tool_call_id: 'call_0', contentFromToolResult: true },
    ]);
    expect(lines.find((line) => line.type === 'tool_result').data).toMatchObject({ resultIsContent: true });
    expect(lines.find((line) => line.type === 'tool_result').data.result).toBeUndefined();
    // Both read back to the same events, equal to what was emitted.
    expect(plain(await readJsonl(compact))).toEqual(plain(events));
    expect(plain(await readJsonl(verbatim))).toEqual(plain(events));
  });

  it('buffers a run and writes it at run_end', async () => {
    const stream = new PassThrough();
    let written = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => (written += chunk));
    const sink = createJsonlSink(stream);
    let seenDuringRun = '';
    const probe = defineTool({
      name: 'probe',
      description: 'Looks at what is written so far.',
      parameters: z.object({}),
      execute: () => {
        seenDuringRun = written;
        return 'ok';
      },
    });
    await new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['probe', {}]]), ScriptedAdapter.text('done')]),
      { probe },
      { traceEmitter: sink },
    ).run([{ role: 'user', content: 'go' }]);
    expect(seenDuringRun).toBe('');
    const types = written
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(['run_start', 'llm_call', 'tool_call', 'tool_result', 'llm_call', 'run_end']);
    await sink.close();
    expect(stream.writableEnded).toBe(false);
  });

  it('appends to an existing file', async () => {
    const path = join(directory, 'append.jsonl');
    for (const text of ['one', 'two']) {
      const sink = createJsonlSink(path);
      await new ToolOrchestrator(
        new ScriptedAdapter([ScriptedAdapter.text(text)]),
        {},
        { traceEmitter: sink },
      ).run([{ role: 'user', content: text }]);
      await sink.close();
    }
    const runs = new Set((await readJsonl(path)).map((event) => event.runId));
    expect(runs.size).toBe(2);
  });

  it.runIf(existsSync('/dev/full'))(
    'never breaks a run when the disk fails: the error goes to onTraceError once',
    async () => {
      const reported: unknown[] = [];
      const sink = createJsonlSink('/dev/full');
      const orchestrator = new ToolOrchestrator(
        new ScriptedAdapter([ScriptedAdapter.text('one'), ScriptedAdapter.text('two')]),
        {},
        { traceEmitter: sink, onTraceError: (error) => reported.push(error) },
      );
      expect((await orchestrator.run([{ role: 'user', content: 'x' }])).content).toBe('one');
      await until(() => reported.length > 0);
      expect((await orchestrator.run([{ role: 'user', content: 'y' }])).content).toBe('two');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(reported).toHaveLength(1);
      expect(reported[0]).toBeInstanceOf(TraceFileError);
      expect((reported[0] as TraceFileError).code).toBe('trace_write_failed');
      expect((reported[0] as TraceFileError).message).toMatch(/\/dev\/full: .*ENOSPC/);
      await expect(sink.flush()).rejects.toThrow(TraceFileError);
    },
  );

  it('reports a file it cannot open to onTraceError and the run goes on', async () => {
    const reported: unknown[] = [];
    const path = join(directory, 'missing', 'dir', 'run.jsonl');
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('hi')]),
      {},
      {
        traceEmitter: createJsonlSink(path),
        onTraceError: (error) => reported.push(error),
      },
    );
    expect((await orchestrator.run([{ role: 'user', content: 'x' }])).content).toBe('hi');
    await until(() => reported.length > 0);
    expect(reported).toHaveLength(1);
    expect((reported[0] as TraceFileError).message).toContain('ENOENT');
    expect((reported[0] as TraceFileError).path).toBe(path);
  });

  it('refuses an event it cannot serialize with an error naming it', () => {
    const sink = createJsonlSink(new PassThrough());
    const event = {
      type: 'custom',
      runId: 'r',
      turn: 0,
      seq: 7,
      timestamp: 1,
      data: { big: 1n },
    } as unknown as TraceEvent;
    expect(() => sink.write(event)).toThrow(/custom event \(seq 7 of run r\) could not be serialized/);
  });

  it('keeps event types it does not know as they are', async () => {
    const path = join(directory, 'unknown.jsonl');
    const sink = createJsonlSink(path);
    const event = {
      type: 'context_compacted',
      runId: 'r',
      turn: 3,
      seq: 9,
      timestamp: 5,
      data: { removed: 4 },
    };
    sink(event as unknown as TraceEvent);
    await sink.close();
    expect(await readJsonl(path)).toEqual([event]);
  });
});

describe('readJsonl', () => {
  const line = (seq: number) =>
    JSON.stringify({
      type: 'warning',
      runId: 'r',
      turn: 0,
      seq,
      timestamp: seq,
      data: { code: 'x', message: 'm' },
    });

  it('skips blank lines and a torn last line', async () => {
    const path = join(directory, 'torn.jsonl');
    await writeFile(path, `${line(0)}\n\n${line(1)}\n${line(2).slice(0, 25)}`);
    expect((await readJsonl(path)).map((event) => event.seq)).toEqual([0, 1]);
  });

  it('names the line of a bad line in the middle', async () => {
    const path = join(directory, 'bad.jsonl');
    await writeFile(path, `${line(0)}\n{"no type":1}\n${line(2)}\n`);
    const error = await readJsonl(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TraceFileError);
    expect(error).toMatchObject({ code: 'trace_line_invalid', line: 2, path });
    expect((error as Error).message).toContain('Line 2 of');
    expect((error as Error).message).toContain('no string "type" field');
  });

  it('says which file it could not read', async () => {
    const path = join(directory, 'nope.jsonl');
    await expect(readJsonl(path)).rejects.toMatchObject({ code: 'trace_read_failed', path });
    await expect(readJsonl(path)).rejects.toThrow(/nope\.jsonl.*ENOENT/);
  });
});
