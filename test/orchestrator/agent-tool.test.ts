import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, TraceEvent, Usage } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const usage = (total: number): Usage => ({
  promptTokens: total - 1,
  completionTokens: 1,
  totalTokens: total,
  reasoningTokens: 0,
  cachedPromptTokens: 0,
});
const search = defineTool({
  name: 'search',
  description: 'Searches',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `found ${query}`,
});

/** A child agent that searches once, then answers. */
function researcher(answer: string, extra: { delayMs?: number } = {}) {
  const adapter = new ScriptedAdapter(
    [
      ScriptedAdapter.toolCalls([['search', { query: 'tides' }, 'child_call']], { usage: usage(100) }),
      ScriptedAdapter.text(answer, { usage: usage(50) }),
    ],
    extra,
  );
  return { adapter, agent: new ToolOrchestrator(adapter, { search }) };
}

describe('orchestrator.asTool()', () => {
  it("runs the agent per call: its events reach the calling run's traces, nested under the call, and its usage counts", async () => {
    const { adapter: childAdapter, agent } = researcher('Tides follow the moon.');
    const research = agent.asTool({ name: 'research', description: 'Researches a topic' });
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['research', { input: 'Why are there tides?' }, 'parent_call']], {
        usage: usage(10),
      }),
      ScriptedAdapter.text('Because of the moon.', { usage: usage(20) }),
    ]);
    const listened: TraceEvent[] = [];
    const parent = new ToolOrchestrator(parentAdapter, { research });
    const result = await parent.run([user('Tides?')], undefined, {
      onEvent: (event) => listened.push(event),
    });

    expect(result.content).toBe('Because of the moon.');
    expect(childAdapter.calls[0]!.messages).toEqual([user('Why are there tides?')]);
    const toolMessage = result.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toBe('Tides follow the moon.');
    expect(result.usage.totalTokens).toBe(10 + 20 + 100 + 50);
    const child = result.traces.filter((event) => event.runId !== result.runId);
    expect(child.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run_start', 'llm_call', 'tool_call', 'tool_result', 'run_end']),
    );
    for (const event of child) {
      expect(event.parentRunId).toBe(result.runId);
      expect(event.parentToolCallId).toBe('parent_call');
    }
    expect(new Set(child.map((event) => event.runId)).size).toBe(1);
    // The child's events come between the parent's tool_call and tool_result, in their own seq order.
    const order = result.traces.map((event) => (event.runId === result.runId ? event.type : 'child'));
    expect(order.indexOf('child')).toBeGreaterThan(order.indexOf('tool_call'));
    expect(order.lastIndexOf('child')).toBeLessThan(order.indexOf('tool_result'));
    expect(child.map((event) => event.seq)).toEqual([...child.keys()]);
    expect(listened).toHaveLength(result.traces.length);
    expectValidTranscript(result.messages);
  });

  it("returns the agent's typed output as the tool's result", async () => {
    const childAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['final_answer', { height: 2.5 }]]),
    ]);
    const agent = new ToolOrchestrator(childAdapter, { search });
    const measure = agent.asTool({
      name: 'measure',
      description: 'Measures the tide',
      parameters: z.object({ place: z.string() }),
      prompt: ({ place }) => `Measure the tide at ${place}.`,
      instructions: 'You measure tides.',
      output: z.object({ height: z.number() }),
    });
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['measure', { place: 'Brest' }]]),
      ScriptedAdapter.text('2.5 m'),
    ]);
    const result = await new ToolOrchestrator(parentAdapter, { measure }).run([user('How high?')]);
    expect(childAdapter.calls[0]!.messages).toEqual([
      { role: 'system', content: 'You measure tides.' },
      user('Measure the tide at Brest.'),
    ]);
    expect(result.messages.find((message) => message.role === 'tool')?.content).toBe('{"height":2.5}');
  });

  it("counts the agent's usage in the calling run's budget", async () => {
    const { agent } = researcher('Done.');
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['research', { input: 'go' }]], { usage: usage(10) }),
      ScriptedAdapter.text('never reached'),
    ]);
    const result = await new ToolOrchestrator(
      parentAdapter,
      { research: agent.asTool({ name: 'research', description: 'Researches' }) },
      { budget: { maxTotalTokens: 100 } },
    ).run([user('go')]);
    expect(result.stopReason).toBe('budget_exceeded');
    expect(parentAdapter.calls).toHaveLength(1);
    expect(result.usage.totalTokens).toBe(160);
  });

  it('aborts the agent when the calling run is aborted', async () => {
    const { agent } = researcher('late', { delayMs: 5_000 });
    const controller = new AbortController();
    const parentAdapter = new ScriptedAdapter([ScriptedAdapter.toolCalls([['research', { input: 'go' }]])]);
    const parent = new ToolOrchestrator(parentAdapter, {
      research: agent.asTool({ name: 'research', description: 'Researches' }),
    });
    const started = Date.now();
    const pending = parent.run([user('go')], undefined, {
      signal: controller.signal,
      // The agent's run has started and waits on its model: the calling run is aborted now.
      onEvent: (event) => {
        if (event.type === 'run_start' && event.parentRunId !== undefined) controller.abort();
      },
    });
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result.stopReason).toBe('aborted');
    const childEnd = result.traces.find(
      (event) => event.type === 'run_end' && event.parentRunId === result.runId,
    );
    expect(childEnd?.type === 'run_end' && childEnd.data.stopReason).toBe('aborted');
  });

  it('nests three levels: each run under the call that started it, in stream() as well', async () => {
    const { agent: grandchild } = researcher('deep answer');
    const childAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['dig', { input: 'deeper' }, 'child_to_grandchild']]),
      ScriptedAdapter.text('child answer'),
    ]);
    const child = new ToolOrchestrator(childAdapter, {
      dig: grandchild.asTool({ name: 'dig', description: 'Digs' }),
    });
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['ask', { input: 'go' }, 'parent_to_child']]),
      ScriptedAdapter.text('parent answer'),
    ]);
    const parent = new ToolOrchestrator(parentAdapter, {
      ask: child.asTool({ name: 'ask', description: 'Asks' }),
    });
    const stream = parent.stream([user('go')]);
    const seen: TraceEvent[] = [];
    for await (const event of stream) seen.push(event);
    const result = await stream.result;
    const starts = seen.filter((event) => event.type === 'run_start');
    expect(starts).toHaveLength(3);
    const [, childStart, grandchildStart] = starts;
    expect(childStart!.parentRunId).toBe(result.runId);
    expect(childStart!.parentToolCallId).toBe('parent_to_child');
    expect(grandchildStart!.parentRunId).toBe(childStart!.runId);
    expect(grandchildStart!.parentToolCallId).toBe('child_to_grandchild');
    expect(result.usage.totalTokens).toBe(150);
    expect(result.content).toBe('parent answer');
  });

  it('throws when the agent stops for an approval outside a calling run (nothing could pause)', async () => {
    const guarded = defineTool({
      name: 'delete_all',
      description: 'Deletes',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'deleted',
    });
    const childAdapter = new ScriptedAdapter([ScriptedAdapter.toolCalls([['delete_all', {}]])]);
    const agent = new ToolOrchestrator(childAdapter, { delete_all: guarded });
    const clean = agent.asTool({ name: 'clean', description: 'Cleans' });
    const context = {
      requestId: 'request',
      runId: 'run',
      turnIndex: 0,
      toolCallId: 'call',
      signal: new AbortController().signal,
    };
    await expect(clean.execute({ input: 'clean up' }, context)).rejects.toThrow(
      /approval of delete_all.*outside an orchestrator's run/,
    );
  });

  it("strips the nested run's content from the calling run's events under traceContent: 'metadata'", async () => {
    const { agent } = researcher('SECRET ANSWER');
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['research', { input: 'SECRET QUESTION' }]]),
      ScriptedAdapter.text('ok'),
    ]);
    const result = await new ToolOrchestrator(
      parentAdapter,
      { research: agent.asTool({ name: 'research', description: 'Researches' }) },
      { traceContent: 'metadata' },
    ).run([user('go')]);
    const nested = result.traces.filter((event) => event.runId !== result.runId);
    expect(nested.length).toBeGreaterThan(0);
    expect(JSON.stringify(nested)).not.toMatch(/SECRET/);
    expect(result.messages.find((message) => message.role === 'tool')?.content).toBe('SECRET ANSWER');
  });

  it("uses the agent's own instructions unless the tool or the run gives others", async () => {
    const childAdapter = new ScriptedAdapter([
      ScriptedAdapter.text('a'),
      ScriptedAdapter.text('b'),
      ScriptedAdapter.text('c'),
    ]);
    const agent = new ToolOrchestrator(childAdapter, {}, { instructions: 'You are terse.' });
    const plain = agent.asTool({ name: 'plain', description: 'Plain' });
    const briefed = agent.asTool({
      name: 'briefed',
      description: 'Briefed',
      instructions: 'You are verbose.',
    });
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['plain', { input: 'one' }],
        ['briefed', { input: 'two' }],
      ]),
      ScriptedAdapter.text('done'),
    ]);
    await new ToolOrchestrator(parentAdapter, { plain, briefed }).run([user('go')]);
    expect(childAdapter.calls.map((call) => call.messages[0])).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'system', content: 'You are verbose.' },
    ]);
    await agent.run([user('three')], 'Run prompt.');
    expect(childAdapter.calls[2]!.messages[0]).toEqual({ role: 'system', content: 'Run prompt.' });
    expect(() => new ToolOrchestrator(childAdapter, {}, { instructions: 5 as never })).toThrow(
      /instructions/,
    );
  });
});
