import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/orchestrator/loop-guard.js';
import { canonicalJson } from '../../src/shared/canonical-json.js';
import { z } from 'zod';
import { InvalidArgumentError, LoopDetectedError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, RunResult } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectPairedToolEvents, expectValidTranscript, textContent } from '../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

function readTool(log: string[]) {
  return defineTool({
    name: 'read',
    description: 'Read a file',
    parameters: z.object({ path: z.string(), lines: z.number().optional() }),
    execute: ({ path }) => {
      log.push(path);
      return `contents of ${path}`;
    },
  });
}

const read = (path: string, id: string, extra: Record<string, unknown> = {}) =>
  ScriptedAdapter.toolCalls([['read', { path, ...extra }, id]]);

const warnings = (result: RunResult) =>
  result.traces.flatMap((event) => (event.type === 'warning' ? [event.data] : []));

const toolContents = (result: RunResult) =>
  result.messages.flatMap((message) => (message.role === 'tool' ? [textContent(message.content)] : []));

describe('loopGuard (on by default)', () => {
  it('blocks the third identical call with the earlier result, and stops the run when the model repeats it again', async () => {
    const executed: string[] = [];
    const adapter = new ScriptedAdapter([
      read('a.ts', 'c1'),
      read('a.ts', 'c2'),
      read('a.ts', 'c3'),
      read('a.ts', 'c4'),
      ScriptedAdapter.text('never reached'),
    ]);
    const result = await new ToolOrchestrator(adapter, { read: readTool(executed) }).run([user('go')]);

    expect(result.stopReason).toBe('loop_detected');
    expect(executed).toEqual(['a.ts', 'a.ts']);
    expect(adapter.calls).toHaveLength(4);
    // The model's third call was answered with the block, naming the earlier result.
    const blocked = JSON.parse(adapter.calls[3]!.messages.at(-1)!.content as string) as { error: string };
    expect(blocked.error).toMatch(/You are repeating yourself: this is call 3 in a row of "read"/);
    expect(blocked.error).toContain('The earlier identical call returned: contents of a.ts');
    // The fourth is answered too, so the transcript stays valid.
    expect(JSON.parse(toolContents(result)[3]!).error).toMatch(/the run was stopped \(loop detected\)/);
    expectValidTranscript(result.messages);
    expectPairedToolEvents(result.traces);
    expect(warnings(result)).toEqual([
      expect.objectContaining({
        code: 'repeated_tool_call',
        toolName: 'read',
        toolCalls: [{ id: 'c3', name: 'read' }],
      }),
      expect.objectContaining({
        code: 'loop_detected',
        toolName: 'read',
        toolCalls: [{ id: 'c4', name: 'read' }],
      }),
    ]);
    const results = result.traces
      .filter((event) => event.type === 'tool_result')
      .map((event) => event.data.errorCode);
    expect(results).toEqual([undefined, undefined, 'repeated_tool_call', 'loop_detected']);
    expect(result.traces.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'loop_detected' } });
  });

  it('compares arguments as canonical JSON: key order and spacing do not hide a repeat', async () => {
    const executed: string[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['read', '{"path":"a.ts","lines":5}', 'c1']]),
      ScriptedAdapter.toolCalls([['read', '{ "lines": 5, "path": "a.ts" }', 'c2']]),
      ScriptedAdapter.toolCalls([['read', '{"lines":5,"path":"a.ts"}', 'c3']]),
      ScriptedAdapter.text('ok'),
    ]);
    const result = await new ToolOrchestrator(adapter, { read: readTool(executed) }).run([user('go')]);
    expect(executed).toHaveLength(2);
    expect(
      result.traces.filter((event) => event.type === 'tool_result').map((event) => event.data.errorCode),
    ).toEqual([undefined, undefined, 'repeated_tool_call']);
    expect(result.stopReason).toBe('final');
  });

  it.each([
    [
      'nested keys reordered',
      '{"q":{"a":[1,{"x":1,"y":2}],"b":"s"}}',
      '{"q":{"b":"s","a":[1,{"y":2,"x":1}]}}',
      true,
    ],
    ['the same number written otherwise', '{"q":1}', '{"q":1.0}', true],
    ['array order', '{"q":[1,2]}', '{"q":[2,1]}', false],
    ['a key more', '{"q":{"a":1}}', '{"q":{"a":1,"b":null}}', false],
    ['a key fewer', '{"q":{"a":1,"b":null}}', '{"q":{"a":1}}', false],
    ['an array for an object', '{"q":[]}', '{"q":{}}', false],
    ['a string for a number', '{"q":"1"}', '{"q":1}', false],
  ])(
    'compares arguments differing by %s (%s, then %s): the same call? %s',
    async (_case, first, second, same) => {
      let runs = 0;
      const query = defineTool({
        name: 'query',
        description: 'Query',
        parameters: z.object({ q: z.unknown() }),
        execute: () => `run ${++runs}`,
      });
      const adapter = new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['query', first, 'c1']]),
        ScriptedAdapter.toolCalls([['query', second, 'c2']]),
        ScriptedAdapter.text('ok'),
      ]);
      const guard = { loopGuard: { identicalCalls: 2 } };
      const result = await new ToolOrchestrator(adapter, { query }, guard).run([user('go')]);
      // With identicalCalls 2, the second call is blocked when it is the same as the first.
      expect(runs).toBe(same ? 1 : 2);
      expectValidTranscript(result.messages);
    },
  );

  it('counts only consecutive repeats: other calls in between, or other arguments, reset the count', async () => {
    const executed: string[] = [];
    const adapter = new ScriptedAdapter([
      read('a.ts', 'c1'),
      read('a.ts', 'c2'),
      read('b.ts', 'c3'),
      read('a.ts', 'c4'),
      read('a.ts', 'c5'),
      ScriptedAdapter.toolCalls([
        ['read', { path: 'x.ts' }, 'c6'],
        ['read', { path: 'y.ts' }, 'c7'],
      ]),
      ScriptedAdapter.text('done'),
    ]);
    const result = await new ToolOrchestrator(adapter, { read: readTool(executed) }).run([user('go')]);
    expect(executed).toEqual(['a.ts', 'a.ts', 'b.ts', 'a.ts', 'a.ts', 'x.ts', 'y.ts']);
    expect(warnings(result)).toEqual([]);
    expect(result.stopReason).toBe('final');
  });

  it('catches repeats within one turn of parallel calls too, quoting the result from the same turn', async () => {
    const executed: string[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['read', { path: 'a.ts' }, 'p1'],
        ['read', { path: 'a.ts' }, 'p2'],
        ['read', { path: 'a.ts' }, 'p3'],
      ]),
      ScriptedAdapter.text('ok'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { read: readTool(executed) },
      { toolConcurrency: 3 },
    ).run([user('go')]);
    expect(executed).toEqual(['a.ts', 'a.ts']);
    expect(JSON.parse(toolContents(result)[2]!).error).toContain(
      'The earlier identical call returned: contents of a.ts',
    );
    expect(result.stopReason).toBe('final');
  });

  it("action 'warn' runs every call and traces one warning per streak", async () => {
    const executed: string[] = [];
    const adapter = new ScriptedAdapter([
      ...['c1', 'c2', 'c3', 'c4'].map((id) => read('a.ts', id)),
      ScriptedAdapter.text('ok'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { read: readTool(executed) },
      { loopGuard: { action: 'warn' } },
    ).run([user('go')]);
    expect(executed).toHaveLength(4);
    expect(warnings(result)).toEqual([
      expect.objectContaining({ code: 'repeated_tool_call', toolCalls: [{ id: 'c3', name: 'read' }] }),
    ]);
    expect(result.stopReason).toBe('final');
  });

  it("action 'stop' ends the run at the Nth repeat, which is not run", async () => {
    const executed: string[] = [];
    const adapter = new ScriptedAdapter([
      read('a.ts', 'c1'),
      read('a.ts', 'c2'),
      ScriptedAdapter.text('never'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { read: readTool(executed) },
      { loopGuard: { identicalCalls: 2, action: 'stop' } },
    ).run([user('go')]);
    expect(executed).toEqual(['a.ts']);
    expect(result.stopReason).toBe('loop_detected');
    expect(adapter.calls).toHaveLength(2);
    expectValidTranscript(result.messages);
  });

  it('traces repeated_tool_errors after N errors in a row from one tool; a success resets the count', async () => {
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails on odd attempts',
      parameters: z.object({ attempt: z.number() }),
      execute: ({ attempt }) => {
        if (attempt !== 3) throw new Error(`attempt ${attempt} failed`);
        return 'ok';
      },
    });
    const attempts = (numbers: number[]) =>
      numbers.map((attempt) => ScriptedAdapter.toolCalls([['flaky', { attempt }, `a${attempt}`]]));
    const adapter = new ScriptedAdapter([...attempts([1, 2, 3, 4, 5, 6]), ScriptedAdapter.text('gave up')]);
    const result = await new ToolOrchestrator(adapter, { flaky }).run([user('go')]);
    expect(warnings(result)).toEqual([
      expect.objectContaining({
        code: 'repeated_tool_errors',
        toolName: 'flaky',
        message: 'Tool "flaky" returned an error 3 times in a row (last: tool_error).',
      }),
    ]);
    // Errors 1 and 2 were followed by a success, so only 4, 5, 6 make a run of three.
    const warning = result.traces.find((event) => event.type === 'warning')!;
    const lastResult = result.traces.filter((event) => event.type === 'tool_result').at(-1)!;
    expect(warning.seq).toBeGreaterThan(lastResult.seq);
    expect(result.stopReason).toBe('final');

    const stopping = new ScriptedAdapter([...attempts([1, 2, 4, 5]), ScriptedAdapter.text('never')]);
    const stopped = await new ToolOrchestrator(
      stopping,
      { flaky },
      { loopGuard: { action: 'stop', repeatedErrors: 2 } },
    ).run([user('go')]);
    expect(stopped.stopReason).toBe('loop_detected');
    expect(stopping.calls).toHaveLength(2);
  });

  it('is off with loopGuard: false, per orchestrator or per run', async () => {
    const script = () => [
      ...['c1', 'c2', 'c3', 'c4'].map((id) => read('a.ts', id)),
      ScriptedAdapter.text('ok'),
    ];
    const executed: string[] = [];
    const off = await new ToolOrchestrator(
      new ScriptedAdapter(script()),
      { read: readTool(executed) },
      { loopGuard: false },
    ).run([user('go')]);
    expect(executed).toHaveLength(4);
    expect(off.stopReason).toBe('final');
    const perRun = await new ToolOrchestrator(new ScriptedAdapter(script()), { read: readTool([]) }).run(
      [user('go')],
      undefined,
      {
        loopGuard: false,
      },
    );
    expect(perRun.stopReason).toBe('final');
  });

  it("gives a tools-off answer with onCutShort: 'final_answer', and throws LoopDetectedError with 'throw'", async () => {
    const script = () => [
      ...['c1', 'c2', 'c3', 'c4'].map((id) => read('a.ts', id)),
      ScriptedAdapter.text('Summary so far'),
    ];
    const adapter = new ScriptedAdapter(script());
    const answered = await new ToolOrchestrator(
      adapter,
      { read: readTool([]) },
      { onCutShort: 'final_answer' },
    ).run([user('go')]);
    expect(answered.stopReason).toBe('loop_detected');
    expect(answered.content).toBe('Summary so far');
    expect(adapter.calls[4]!.options.toolChoice).toBe('none');

    const error = await new ToolOrchestrator(
      new ScriptedAdapter(script()),
      { read: readTool([]) },
      { onCutShort: 'throw' },
    )
      .run([user('go')])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LoopDetectedError);
    expect((error as LoopDetectedError<RunResult>).result.stopReason).toBe('loop_detected');
    expect((error as LoopDetectedError).code).toBe('loop_detected');
  });

  it('refuses settings that cannot work', () => {
    const adapter = new ScriptedAdapter([]);
    expect(() => new ToolOrchestrator(adapter, {}, { loopGuard: { identicalCalls: 1 } })).toThrow(
      /loopGuard.identicalCalls \(1\): must be an integer, at least 2/,
    );
    expect(() => new ToolOrchestrator(adapter, {}, { loopGuard: { action: 'kill' as never } })).toThrow(
      InvalidArgumentError,
    );
    expect(() => new ToolOrchestrator(adapter, {}, { loopGuard: 'on' as never })).toThrow(
      /loopGuard \("on"\)/,
    );
  });

  it('compares arguments exactly as their canonical JSON would (fast-check, against the reference)', () => {
    // Pairs from one JSON value, its keys reordered, and small edits of it.
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(json, json, fc.boolean(), (value, other, reorder) => {
        const first = JSON.parse(JSON.stringify(value)) as unknown;
        const second = reorder ? reordered(first) : (JSON.parse(JSON.stringify(other)) as unknown);
        expect(sameJson(first, second)).toBe(canonicalJson(first) === canonicalJson(second));
      }),
      { numRuns: 2_000 },
    );
  });
});

/** The same JSON value with every object's keys in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reordered(item)]),
  );
}
