import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  FileCheckpointStore,
  InvalidArgumentError,
  ToolDefinitionError,
  ToolOrchestrator,
  defineTool,
} from '../../src/index.js';
import type { ChatMessage, RunResult, RunState } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

/** The state as a store or a network would hand it back: plain JSON. */
function roundTrip(state: RunState): RunState {
  return JSON.parse(JSON.stringify(state)) as RunState;
}

function makeTools(log: string[], asked: string[] = []) {
  return {
    read: defineTool({
      name: 'read',
      description: 'Read a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        log.push(`read ${path}`);
        return `contents of ${path}`;
      },
    }),
    remove: defineTool({
      name: 'remove',
      description: 'Delete a file',
      parameters: z.object({ path: z.string() }),
      // Only files outside tmp/ need a person's yes.
      needsApproval: ({ path }, context) => {
        asked.push(`${path} ${context.toolCallId}`);
        return !path.startsWith('tmp/');
      },
      execute: ({ path }) => {
        log.push(`remove ${path}`);
        return `removed ${path}`;
      },
    }),
  };
}

const turn = ScriptedAdapter.toolCalls([
  ['read', { path: 'a.txt' }, 'r1'],
  ['remove', { path: 'a.txt' }, 'd1'],
  ['remove', { path: 'tmp/x' }, 'd2'],
  ['remove', { path: 'b.txt' }, 'd3'],
]);

describe('human approval', () => {
  it('runs the calls that need none, pauses for the others, and goes on with the decisions', async () => {
    const log: string[] = [];
    const asked: string[] = [];
    const adapter = new ScriptedAdapter([turn, ScriptedAdapter.text('done')]);
    const orchestrator = new ToolOrchestrator(adapter, makeTools(log, asked), { toolConcurrency: 4 });
    const paused = await orchestrator.run([{ role: 'user', content: 'clean up' }]);
    expect(paused.stopReason).toBe('awaiting_approval');
    expect(paused.content).toBe('');
    expect(paused.pendingApprovals).toEqual([
      { toolCallId: 'd1', name: 'remove', arguments: '{"path":"a.txt"}' },
      { toolCallId: 'd3', name: 'remove', arguments: '{"path":"b.txt"}' },
    ]);
    expect(log.sort()).toEqual(['read a.txt', 'remove tmp/x']);
    expect(paused.state!.stopReason).toBe('awaiting_approval');
    // The paused run ends like any other (sinks close its span and flush), after saying why.
    expect(paused.traces.slice(-2)).toMatchObject([
      { type: 'warning', data: { code: 'awaiting_approval' } },
      { type: 'run_end', data: { stopReason: 'awaiting_approval' } },
    ]);

    // Decisions come in two resumes: d1 first (approved: it runs at once), d3 later.
    const json = JSON.parse(JSON.stringify(paused.state)) as typeof paused.state;
    const partly = await orchestrator.resume(json!, { approvals: { d1: { approved: true } } });
    expect(partly.stopReason).toBe('awaiting_approval');
    expect(partly.pendingApprovals).toEqual([
      { toolCallId: 'd3', name: 'remove', arguments: '{"path":"b.txt"}' },
    ]);
    expect(log.sort()).toEqual(['read a.txt', 'remove a.txt', 'remove tmp/x']);

    const result = await orchestrator.resume(partly.state!, {
      approvals: { d3: { approved: false, reason: 'b.txt is still needed' } },
    });
    expect(result.stopReason).toBe('final');
    expect(result.content).toBe('done');
    expect(log).toHaveLength(3); // b.txt was never removed
    expectValidTranscript(result.messages);
    const denied = result.messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === 'd3',
    );
    expect(JSON.parse((denied as { content: string }).content)).toEqual({
      error: 'A person denied this call to "remove", so it did not run. Reason: b.txt is still needed',
    });
    expect(result.traces).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        data: expect.objectContaining({ errorCode: 'approval_denied' }),
      }),
    );
    // needsApproval was asked once per call, never again on resume.
    expect(asked).toEqual(['a.txt d1', 'tmp/x d2', 'b.txt d3']);
    expect(partly.state!.approvalDecisions).toEqual({ d1: { approved: true } });
    expect(result.state).toBeUndefined();
    expect(adapter.calls).toHaveLength(2);
  });

  it('works across processes through a store, and with stream()', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'approvals-'));
    try {
      const log: string[] = [];
      const first = new ToolOrchestrator(new ScriptedAdapter([turn]), makeTools(log), {
        checkpointStore: new FileCheckpointStore({ dir }),
      });
      const stream = first.stream([{ role: 'user', content: 'clean up' }], undefined, { runId: 'web-1' });
      const events: string[] = [];
      for await (const event of stream) events.push(event.type);
      const paused = await stream.result;
      expect(paused.stopReason).toBe('awaiting_approval');
      expect(events).toContain('warning');

      const second = new ToolOrchestrator(
        new ScriptedAdapter([ScriptedAdapter.text('done')]),
        makeTools(log),
        {
          checkpointStore: new FileCheckpointStore({ dir }),
        },
      );
      const result: RunResult = await second.resume('web-1', {
        approvals: { d1: { approved: true }, d3: { approved: true } },
      });
      expect(result.content).toBe('done');
      expect(log.sort()).toEqual(['read a.txt', 'remove a.txt', 'remove b.txt', 'remove tmp/x']);
      expectValidTranscript(result.messages);
      // Resuming again returns the recorded result and runs nothing.
      expect((await second.resume('web-1')).content).toBe('done');
      expect(log).toHaveLength(4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses decisions on calls that wait for none, or that contradict one recorded', async () => {
    const orchestrator = new ToolOrchestrator(new ScriptedAdapter([turn]), makeTools([]));
    const paused = await orchestrator.run([{ role: 'user', content: 'clean up' }]);
    await expect(
      orchestrator.resume(paused.state!, { approvals: { r1: { approved: true } } }),
    ).rejects.toThrow('names no call that waits for approval; the calls waiting are: d1, d3');
    await expect(
      orchestrator.resume(paused.state!, { approvals: { d1: { approved: 'yes' } } } as never),
    ).rejects.toThrow(InvalidArgumentError);
    const partly = await orchestrator.resume(paused.state!, { approvals: { d1: { approved: false } } });
    await expect(
      orchestrator.resume(partly.state!, { approvals: { d1: { approved: true } } }),
    ).rejects.toThrow('contradicts the decision already recorded');
  });

  it('traces a tool_result for each call that ran before the pause, once, and the rest on resume', async () => {
    const log: string[] = [];
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([turn, ScriptedAdapter.text('done')]),
      makeTools(log),
      { toolConcurrency: 2 },
    );
    const resultIds = (traces: readonly { type: string; data: unknown }[]) =>
      traces
        .filter((event) => event.type === 'tool_result')
        .map((event) => (event.data as { toolCallId: string }).toolCallId);

    const stream = orchestrator.stream([{ role: 'user', content: 'clean up' }]);
    const streamed: string[] = [];
    for await (const event of stream) if (event.type === 'tool_result') streamed.push(event.data.toolCallId);
    const paused = await stream.result;
    expect(paused.stopReason).toBe('awaiting_approval');
    // r1 and d2 ran: their results are in the trace, in call order, before the run ends.
    expect(resultIds(paused.traces)).toEqual(['r1', 'd2']);
    expect(streamed).toEqual(['r1', 'd2']);
    const pausedEvents = paused.traces.map((event) => event.type);
    expect(pausedEvents.indexOf('tool_result')).toBeLessThan(pausedEvents.indexOf('run_end'));

    const partly = await orchestrator.resume(roundTrip(paused.state!), {
      approvals: { d1: { approved: true } },
    });
    expect(resultIds(partly.traces)).toEqual(['d1']);
    const result = await orchestrator.resume(roundTrip(partly.state!), {
      approvals: { d3: { approved: false } },
    });
    expect(resultIds(result.traces)).toEqual(['d3']);
    expect(result.traces.find((event) => event.type === 'tool_result')).toMatchObject({
      data: { errorCode: 'approval_denied' },
    });
  });

  it('never lets a decision approve a later call that reuses its id, after the transcript was replaced', async () => {
    // Some local servers send the same id every turn. Turn 0: delete tmp/cache.txt (call_1,
    // approved). Turn 1: a prepareTurn hook compacts the transcript, and a call waits for approval
    // again. Turn 2, in the process that resumed: delete prod/database.sqlite, again as call_1.
    const deleted: string[] = [];
    const asked: string[] = [];
    const deleteFile = defineTool({
      name: 'delete_file',
      description: 'Delete a file',
      parameters: z.object({ path: z.string() }),
      needsApproval: ({ path }) => {
        asked.push(path);
        return true;
      },
      execute: ({ path }) => {
        deleted.push(path);
        return `deleted ${path}`;
      },
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['delete_file', { path: 'tmp/cache.txt' }, 'call_1']]),
      ScriptedAdapter.toolCalls([['delete_file', { path: 'tmp/old.log' }, 'call_2']]),
      ScriptedAdapter.toolCalls([['delete_file', { path: 'prod/database.sqlite' }, 'call_1']]),
      ScriptedAdapter.text('done'),
    ]);
    const compact = ({ turn, messages }: { turn: number; messages: readonly ChatMessage[] }) =>
      turn === 1
        ? {
            messages: [messages[0]!, { role: 'user' as const, content: 'Summary: tmp/cache.txt is gone.' }],
            replaceTranscript: true,
          }
        : undefined;
    const orchestrator = new ToolOrchestrator(adapter, { delete_file: deleteFile }, { prepareTurn: compact });
    const first = await orchestrator.run([{ role: 'user', content: 'clean up' }]);
    expect(first.pendingApprovals).toEqual([expect.objectContaining({ toolCallId: 'call_1' })]);
    const second = await orchestrator.resume(roundTrip(first.state!), {
      approvals: { call_1: { approved: true } },
    });
    expect(second.pendingApprovals).toEqual([expect.objectContaining({ toolCallId: 'call_2' })]);
    expect(JSON.stringify(second.state!.messages)).not.toContain('call_1');
    const third = await orchestrator.resume(roundTrip(second.state!), {
      approvals: { call_2: { approved: true } },
    });

    expect(deleted).toEqual(['tmp/cache.txt', 'tmp/old.log']);
    expect(asked).toEqual(['tmp/cache.txt', 'tmp/old.log', 'prod/database.sqlite']);
    expect(third.stopReason).toBe('awaiting_approval');
    const waiting = third.pendingApprovals ?? [];
    expect(waiting).toEqual([
      {
        toolCallId: expect.not.stringMatching(/^call_[12]$/),
        name: 'delete_file',
        arguments: '{"path":"prod/database.sqlite"}',
      },
    ]);
    const denied = await orchestrator.resume(roundTrip(third.state!), {
      approvals: { [waiting[0]!.toolCallId]: { approved: false } },
    });
    expect(denied.content).toBe('done');
    expect(deleted).toEqual(['tmp/cache.txt', 'tmp/old.log']);
    expectValidTranscript(denied.messages);
  });

  it('checks needsApproval at definition', () => {
    expect(() =>
      defineTool({
        name: 'x',
        description: 'x',
        parameters: z.object({}),
        needsApproval: 'yes' as never,
        execute: () => 1,
      }),
    ).toThrow(ToolDefinitionError);
  });
});
