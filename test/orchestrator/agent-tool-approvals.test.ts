import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointStore, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, RunState } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

/** Tools that count their runs, one of them needing approval. */
function countedTools() {
  const runs: string[] = [];
  const search = defineTool({
    name: 'search',
    description: 'Searches',
    parameters: z.object({ query: z.string() }),
    execute: ({ query }, context) => {
      runs.push(`search ${context.toolCallId}`);
      return `found ${query}`;
    },
  });
  const deleteAll = defineTool({
    name: 'delete_all',
    description: 'Deletes',
    parameters: z.object({ what: z.string() }),
    needsApproval: true,
    execute: ({ what }, context) => {
      runs.push(`delete_all ${context.toolCallId}`);
      return `deleted ${what}`;
    },
  });
  return { runs, search, deleteAll };
}

/** A parent that asks its `clean` agent, which searches and deletes (the deletion needs approval). */
function twoLevels() {
  const { runs, search, deleteAll } = countedTools();
  const childAdapter = new ScriptedAdapter([
    ScriptedAdapter.toolCalls([
      ['search', { query: 'junk' }, 'c1'],
      ['delete_all', { what: 'junk' }, 'c2'],
    ]),
    ScriptedAdapter.text('cleaned'),
  ]);
  const child = new ToolOrchestrator(childAdapter, { search, delete_all: deleteAll });
  const parentAdapter = new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['clean', { input: 'clean up' }, 'p1']]),
    ScriptedAdapter.text('all clean'),
  ]);
  const parent = new ToolOrchestrator(parentAdapter, {
    clean: child.asTool({ name: 'clean', description: 'Cleans' }),
  });
  return { runs, parent, childAdapter, parentAdapter };
}

describe('approvals inside agent tools', () => {
  it("pause the calling run, listing the nested call with its agent's path; resume continues the nested run", async () => {
    const { runs, parent, childAdapter } = twoLevels();
    const paused = await parent.run([user('clean')]);

    expect(paused.stopReason).toBe('awaiting_approval');
    expect(paused.pendingApprovals).toEqual([
      {
        toolCallId: 'p1/c2',
        name: 'delete_all',
        arguments: JSON.stringify({ what: 'junk' }),
        agentPath: [{ toolName: 'clean', toolCallId: 'p1', runId: expect.any(String) }],
      },
    ]);
    const childRunId = paused.pendingApprovals![0]!.agentPath![0]!.runId;
    expect(paused.traces.some((event) => event.runId === childRunId && event.type === 'run_start')).toBe(
      true,
    );
    expect(runs).toEqual(['search c1']);
    // Nothing answers the agent-tool call while it waits.
    expect(paused.messages.filter((message) => message.role === 'tool')).toEqual([]);

    const state = JSON.parse(JSON.stringify(paused.state)) as RunState;
    const result = await parent.resume(state, { approvals: { 'p1/c2': { approved: true } } });

    expect(result.stopReason).toBe('final');
    expect(result.content).toBe('all clean');
    expect(runs).toEqual(['search c1', 'delete_all c2']);
    // The nested run went on from its pause: two model calls in all, the second seeing both results.
    expect(childAdapter.calls).toHaveLength(2);
    const seen = childAdapter.calls[1]!.messages.filter((message) => message.role === 'tool');
    expect(seen.map((message) => message.content)).toEqual(['found junk', 'deleted junk']);
    const answer = result.messages.find((message) => message.role === 'tool');
    expect(answer?.content).toBe('cleaned');
    const nested = result.traces.filter((event) => event.runId === childRunId);
    expect(nested.map((event) => event.type)).toContain('run_end');
    for (const event of nested) expect(event.parentToolCallId).toBe('p1');
    expectValidTranscript(result.messages);
  });

  it('a denial reaches the nested run as the call’s error, and the calling run finishes', async () => {
    const { runs, parent, childAdapter } = twoLevels();
    const paused = await parent.run([user('clean')]);
    const result = await parent.resume(paused.state!, {
      approvals: { 'p1/c2': { approved: false, reason: 'keep it' } },
    });
    expect(result.content).toBe('all clean');
    expect(runs).toEqual(['search c1']);
    const denied = childAdapter.calls[1]!.messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === 'c2',
    );
    expect(String(denied?.content)).toMatch(/denied.*keep it/);
  });

  it('refuses a decision on a nested key that waits for none, naming the ones that wait', async () => {
    const { parent } = twoLevels();
    const paused = await parent.run([user('clean')]);
    await expect(parent.resume(paused.state!, { approvals: { c2: { approved: true } } })).rejects.toThrow(
      /p1\/c2/,
    );
  });

  it('carry through three levels with a checkpoint store, resumed by run id, every finished tool run once', async () => {
    const { runs, search, deleteAll } = countedTools();
    const grandchildAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['search', { query: 'old logs' }, 'g1'],
        ['delete_all', { what: 'old logs' }, 'g2'],
      ]),
      ScriptedAdapter.text('logs gone'),
    ]);
    const grandchild = new ToolOrchestrator(grandchildAdapter, { search, delete_all: deleteAll });
    const childAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['search', { query: 'disk' }, 'c1'],
        ['prune', { input: 'prune the logs' }, 'c2'],
      ]),
      ScriptedAdapter.text('disk pruned'),
    ]);
    const child = new ToolOrchestrator(childAdapter, {
      search,
      prune: grandchild.asTool({ name: 'prune', description: 'Prunes' }),
    });
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['search', { query: 'space' }, 'p1'],
        ['tidy', { input: 'tidy the disk' }, 'p2'],
      ]),
      ScriptedAdapter.text('tidy'),
    ]);
    const store = new MemoryCheckpointStore();
    const parent = new ToolOrchestrator(
      parentAdapter,
      { search, tidy: child.asTool({ name: 'tidy', description: 'Tidies' }) },
      { checkpointStore: store },
    );

    const paused = await parent.run([user('tidy up')], undefined, { runId: 'tree' });
    expect(paused.pendingApprovals).toEqual([
      {
        toolCallId: 'p2/c2/g2',
        name: 'delete_all',
        arguments: JSON.stringify({ what: 'old logs' }),
        agentPath: [
          { toolName: 'tidy', toolCallId: 'p2', runId: 'tree/p2' },
          { toolName: 'prune', toolCallId: 'c2', runId: 'tree/p2/c2' },
        ],
      },
    ]);
    expect(runs.sort()).toEqual(['search c1', 'search g1', 'search p1']);
    // The nested runs saved their own checkpoints in the calling run's store.
    expect((await store.load('tree/p2'))?.stopReason).toBe('awaiting_approval');
    expect((await store.load('tree/p2/c2'))?.stopReason).toBe('awaiting_approval');

    const result = await parent.resume('tree', { approvals: { 'p2/c2/g2': { approved: true } } });
    expect(result.content).toBe('tidy');
    expect(runs.sort()).toEqual(['delete_all g2', 'search c1', 'search g1', 'search p1']);
    expect(grandchildAdapter.calls).toHaveLength(2);
    expect(childAdapter.calls).toHaveLength(2);
    expect(parentAdapter.calls).toHaveLength(2);
    const toolAnswers = result.messages.filter((message) => message.role === 'tool');
    expect(toolAnswers.map((message) => message.content)).toEqual(['found space', 'disk pruned']);
    expect((await store.load('tree/p2/c2'))?.result?.content).toBe('logs gone');
    expectValidTranscript(result.messages);
  });

  it('pauses once for two agent calls of one turn that both wait, and goes on when both are decided', async () => {
    const { runs, search, deleteAll } = countedTools();
    const childAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['delete_all', { what: 'a' }, 'c1']]),
      ScriptedAdapter.toolCalls([['delete_all', { what: 'b' }, 'c1']]),
      ScriptedAdapter.text('done a'),
      ScriptedAdapter.text('done b'),
    ]);
    const child = new ToolOrchestrator(childAdapter, { search, delete_all: deleteAll });
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['clean', { input: 'a' }, 'p1'],
        ['clean', { input: 'b' }, 'p2'],
      ]),
      ScriptedAdapter.text('both'),
    ]);
    const parent = new ToolOrchestrator(parentAdapter, {
      clean: child.asTool({ name: 'clean', description: 'Cleans' }),
    });
    const paused = await parent.run([user('clean both')]);
    expect(paused.pendingApprovals?.map((approval) => approval.toolCallId)).toEqual(['p1/c1', 'p2/c1']);

    const half = await parent.resume(paused.state!, { approvals: { 'p1/c1': { approved: true } } });
    expect(half.stopReason).toBe('awaiting_approval');
    expect(half.pendingApprovals?.map((approval) => approval.toolCallId)).toEqual(['p2/c1']);
    expect(runs).toEqual(['delete_all c1']);

    const result = await parent.resume(half.state!, { approvals: { 'p2/c1': { approved: true } } });
    expect(result.content).toBe('both');
    expect(runs).toEqual(['delete_all c1', 'delete_all c1']);
    expectValidTranscript(result.messages);
  });
});
