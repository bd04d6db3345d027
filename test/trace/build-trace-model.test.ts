import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createExploreCodebaseTool } from '../../src/flows/explorer/create-explore-codebase-tool.js';
import type { ChatMessage } from '../../src/model/messages.js';
import { ToolOrchestrator } from '../../src/orchestrator/tool-orchestrator.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import { toolCallStartOffsets } from '../../src/tracing/tool-call-schedule.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { buildTraceModel } from '../../src/trace/viewer/build-trace-model.js';
import type { ModelItem, RunView, ToolItem } from '../../src/trace/viewer/trace-model.js';
import { runTracedScenario } from '../support/traced-scenario.js';

const axios = fileURLToPath(new URL('../../node_modules/axios', import.meta.url));

const tools = (run: RunView): ToolItem[] =>
  run.turns.flatMap((turn) => turn.items).filter((item): item is ToolItem => item.kind === 'tool');
const models = (run: RunView): ModelItem[] =>
  run.turns.flatMap((turn) => turn.items).filter((item): item is ModelItem => item.kind === 'model');

describe('toolCallStartOffsets', () => {
  it('lays sequential calls end to end', () => {
    expect(toolCallStartOffsets([10, 20, 5], 35.4)).toEqual([0, 10, 30]);
    // Timestamps are whole milliseconds: a batch of 20.7 ms may read 20.
    expect(toolCallStartOffsets([10.4, 10.3], 20)).toEqual([0, 10.4]);
  });
  it('starts parallel calls together', () => {
    expect(toolCallStartOffsets([10, 20, 30], 30.2)).toEqual([0, 0, 0]);
  });
  it('finds the smallest pool that fits the batch', () => {
    // Two workers: the third call starts when the first is done.
    expect(toolCallStartOffsets([10, 20, 5], 20.2)).toEqual([0, 0, 10]);
    expect(toolCallStartOffsets([], 0)).toEqual([]);
  });
});

describe('buildTraceModel', () => {
  it('builds runs, turns, items and totals from a recorded scenario, with prices', async () => {
    const events = await runTracedScenario();
    const model = buildTraceModel(events, {
      prices: { 'main-model': { inputPerMillion: 1, outputPerMillion: 10, cachedInputPerMillion: 0.1 } },
    });
    expect(model.title).toBe('Trace: How are requests sent in axios?');
    expect(model.totals).toMatchObject({
      events: events.length,
      runs: 3,
      turns: 7,
      toolCalls: 7,
      toolErrors: 1,
      warnings: 0,
      errors: 1,
      inputTokens: 120 + 400 + 2200 + 300 + 900 + 1500 + 50,
      outputTokens: 30 + 40 + 60 + 20 + 25 + 200 + 10,
      reasoningTokens: 25,
      cachedTokens: 100,
      unpricedCalls: 3,
    });
    // main-model calls: (120-100)*1 + 100*0.1 + 30*10, 400 + 400, 2200 + 600, 50 + 100; in dollars per million.
    expect(model.totals.costUsd).toBeCloseTo((20 + 10 + 300 + 400 + 400 + 2200 + 600 + 50 + 100) / 1e6, 12);
    const [main, second] = model.runs;
    expect(model.runs).toHaveLength(2);
    expect(main!.label).toBe('How are requests sent in axios?');
    expect(main!.turns.map((turn) => turn.items.map((item) => item.kind))).toEqual([
      ['model', 'tool', 'tool'],
      ['model', 'tool', 'tool'],
      ['model'],
    ]);
    const first = models(main!)[0]!;
    expect(first.prompts).toEqual([
      { role: 'system', content: 'You are a careful engineer.' },
      { role: 'user', content: 'How are requests sent in axios?' },
    ]);
    expect(first.messageCount).toBe(2);
    expect(models(main!)[1]!.prompts).toEqual([]);
    expect(models(main!)[2]!.reasoning).toBe('The explorer found the dispatch path. Summarize.');
    const explore = tools(main!).find((item) => item.name === 'explore_codebase')!;
    expect(explore.children.map((run) => run.label)).toEqual(['Where are requests dispatched?']);
    expect(tools(main!).find((item) => item.name === 'broken')).toMatchObject({
      errorCode: 'tool_error',
      error: expect.stringContaining('disk on fire'),
    });
    expect(second!.stopReason).toBe('error');
    expect(second!.turns[1]!.items).toEqual([
      expect.objectContaining({
        kind: 'error',
        code: 'rate_limit',
        name: 'ModelProviderError',
        message: 'Slow down.',
      }),
    ]);
  });

  /** A parent that runs explore_codebase twice in one turn: a slow question (two searches) and a quick one. */
  async function exploreTwice(toolConcurrency: number): Promise<TraceEvent[]> {
    const reportFor = (question: string) =>
      JSON.stringify({
        question,
        inferredUserGoal: null,
        confidence: 0.5,
        repoMap: { entrypoints: [], keyDirs: [], configs: [], commands: [] },
        findings: [],
        missingInfoQuestions: [],
        recommendedNextAction: 'ask_clarifying_questions',
      });
    const questionOf = (messages: readonly ChatMessage[]) =>
      String(messages.find((message) => message.role === 'user')?.content);
    const child = new ScriptedAdapter(
      Array.from({ length: 4 }, () => (messages: readonly ChatMessage[]) => {
        const question = questionOf(messages);
        const searches = messages.filter((message) => message.role === 'tool').length;
        return question === 'slow' && searches < 2
          ? ScriptedAdapter.toolCalls([['grep_repo', { pattern: 'dispatchRequest' }, `grep_${searches}`]])
          : ScriptedAdapter.text(reportFor(question));
      }),
      { delayMs: 10 },
    );
    const events: TraceEvent[] = [];
    const sink = (event: TraceEvent) => void events.push(event);
    const parent = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['explore_codebase', { question: 'slow' }, 'call_slow'],
        ['explore_codebase', { question: 'quick' }, 'call_quick'],
      ]),
      ScriptedAdapter.text('done'),
    ]);
    await new ToolOrchestrator(
      parent,
      { explore_codebase: createExploreCodebaseTool({ adapter: child, root: axios, traceEmitter: sink }) },
      { traceEmitter: sink, toolConcurrency },
    ).run([{ role: 'user', content: 'go' }]);
    return events;
  }

  const childrenByCall = (events: readonly TraceEvent[]) => {
    const [main] = buildTraceModel(events).runs;
    return Object.fromEntries(
      tools(main!).map((item) => [
        item.id,
        item.children.map((run) => `${run.label}: ${run.turnCount} turns`),
      ]),
    );
  };

  it('puts each subagent under the parallel call that spawned it (explore_codebase stamps parentToolCallId)', async () => {
    const events = await exploreTwice(2);
    const children = events.filter((event) => event.parentRunId !== undefined);
    expect(new Set(children.map((event) => event.parentToolCallId))).toEqual(
      new Set(['call_slow', 'call_quick']),
    );
    expect(childrenByCall(events)).toEqual({ call_slow: ['slow: 3 turns'], call_quick: ['quick: 1 turns'] });
  });

  it('without parentToolCallId, matches subagents to sequential calls by time', async () => {
    const events = (await exploreTwice(1)).map((event) => {
      const { parentToolCallId: _dropped, ...rest } = event;
      return rest as TraceEvent;
    });
    expect(childrenByCall(events)).toEqual({ call_slow: ['slow: 3 turns'], call_quick: ['quick: 1 turns'] });
  });

  it('follows parentToolCallId when events carry it, and keeps runs whose parent is missing', () => {
    const base = { turn: 0, data: {} };
    const event = (fields: Record<string, unknown>) => ({ ...base, ...fields }) as unknown as TraceEvent;
    const model = buildTraceModel([
      event({ type: 'run_start', runId: 'p', seq: 0, timestamp: 0 }),
      event({
        type: 'tool_call',
        runId: 'p',
        seq: 1,
        timestamp: 1,
        data: { toolCall: { id: 'a', type: 'function', function: { name: 'x', arguments: '{}' } } },
      }),
      event({
        type: 'tool_call',
        runId: 'p',
        seq: 2,
        timestamp: 1,
        data: { toolCall: { id: 'b', type: 'function', function: { name: 'x', arguments: '{}' } } },
      }),
      event({ type: 'run_start', runId: 'c', parentRunId: 'p', parentToolCallId: 'b', seq: 0, timestamp: 2 }),
      event({
        type: 'run_end',
        runId: 'c',
        parentRunId: 'p',
        seq: 1,
        timestamp: 3,
        data: { stopReason: 'final' },
      }),
      event({
        type: 'tool_result',
        runId: 'p',
        seq: 3,
        timestamp: 4,
        data: { toolCallId: 'a', name: 'x', content: '', durationMs: 3 },
      }),
      event({
        type: 'tool_result',
        runId: 'p',
        seq: 4,
        timestamp: 4,
        data: { toolCallId: 'b', name: 'x', content: '', durationMs: 3 },
      }),
      event({ type: 'run_start', runId: 'orphan', parentRunId: 'gone', seq: 0, timestamp: 5 }),
      event({ type: 'context_compacted', runId: 'orphan', seq: 1, timestamp: 6, data: { removed: 3 } }),
    ]);
    const [parent, orphan] = model.runs;
    const calls = tools(parent!);
    expect(calls.map((call) => call.children.map((run) => run.runId))).toEqual([[], ['c']]);
    expect(orphan).toMatchObject({
      runId: 'orphan',
      parentMissing: true,
      parentRunId: 'gone',
      durationMs: null,
    });
    expect(orphan!.turns[0]!.items).toEqual([
      { kind: 'event', type: 'context_compacted', atMs: 6, data: { removed: 3 } },
    ]);
    expect(buildTraceModel([]).runs).toEqual([]);
    expect(buildTraceModel([]).title).toBe('Empty trace');
  });

  it("shows a handoff as an event of the turn, and both agents' model calls in the one run", async () => {
    const billing = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('Paid.')]),
      {},
      {
        name: 'billing',
      },
    );
    const triage = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}, 'to_billing']])]),
      {},
      { name: 'triage', handoffs: [billing] },
    );
    const result = await triage.run([{ role: 'user', content: 'Did I pay?' }]);
    const [run] = buildTraceModel(result.traces).runs;
    const items = run!.turns.flatMap((turn) => turn.items);
    expect(items).toContainEqual(
      expect.objectContaining({
        kind: 'event',
        type: 'handoff',
        data: { from: 'triage', to: 'billing', toolCallId: 'to_billing' },
      }),
    );
    expect(models(run!)).toHaveLength(2);
  });
});
