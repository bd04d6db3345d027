import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidArgumentError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectPairedToolEvents, expectValidTranscript } from '../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

/**
 * A tool that ignores its abort signal and finishes its side effect after `ms`. Once `quick` is
 * saved it aborts `controller`, so the abort lands while `slow` runs, however loaded the machine.
 */
function sideEffects(log: string[], controller: AbortController) {
  return defineTool({
    name: 'save',
    description: 'Saves a record, slowly',
    parameters: z.object({ id: z.string(), ms: z.number() }),
    execute: async ({ id, ms }) => {
      log.push(`start ${id}`);
      await sleep(ms);
      log.push(`saved ${id}`);
      if (id === 'quick') setTimeout(() => controller.abort(), 20);
      return id;
    },
  });
}

const turn = ScriptedAdapter.toolCalls([
  ['save', { id: 'quick', ms: 1 }, 'quick'],
  ['save', { id: 'slow', ms: 300 }, 'slow'],
]);

describe('abort while tools run', () => {
  it('waits for a slow sibling tool to settle before the run settles; the transcript stays valid', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([turn, ScriptedAdapter.text('never')]),
      { save: sideEffects(log, controller) },
      { toolConcurrency: 2 },
    );
    const started = performance.now();
    const result = await orchestrator.run([user('go')], undefined, { signal: controller.signal });
    const settledAfter = performance.now() - started;

    // The run settled only after the slow tool's side effect was done.
    expect(log).toContain('saved slow');
    expect(settledAfter).toBeGreaterThanOrEqual(250);
    expect(result.stopReason).toBe('aborted');
    expect(result.traces.some((event) => event.type === 'warning')).toBe(false);
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content)).toEqual([
      'quick',
      JSON.stringify({ error: 'The run was aborted while this tool call was running.' }),
    ]);
    expectValidTranscript(result.messages);
    expectPairedToolEvents(result.traces);
  });

  it('settles after abortGraceMs with a tools_still_running warning naming what is left', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([turn, ScriptedAdapter.text('never')]),
      { save: sideEffects(log, controller) },
      { toolConcurrency: 2, abortGraceMs: 50 },
    );
    const stream = orchestrator.stream([user('go')], undefined, { signal: controller.signal });
    const streamed: string[] = [];
    for await (const event of stream) streamed.push(event.type);
    const result = await stream.result;
    expect(streamed.slice(-2)).toEqual(['warning', 'run_end']);
    expect(log).not.toContain('saved slow');
    expect(result.stopReason).toBe('aborted');
    const warning = result.traces.find((event) => event.type === 'warning');
    expect(warning?.data).toMatchObject({
      code: 'tools_still_running',
      toolCalls: [{ id: 'slow', name: 'save' }],
      message: expect.stringContaining('save (slow)'),
    });
    expect(result.traces.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'aborted' } });
    expectValidTranscript(result.messages);
    await sleep(300);
    expect(log).toContain('saved slow');
  });

  it('does not wait for a tool that honours its signal longer than it takes to stop', async () => {
    const controller = new AbortController();
    const polite = defineTool({
      name: 'polite',
      description: 'Stops when asked',
      parameters: z.object({}),
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
    });
    setTimeout(() => controller.abort(), 30);
    const started = performance.now();
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['polite', {}]]), ScriptedAdapter.text('never')]),
      { polite },
    ).run([user('go')], undefined, { signal: controller.signal });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.stopReason).toBe('aborted');
    expect(result.traces.some((event) => event.type === 'warning')).toBe(false);
  });

  it('refuses a negative abortGraceMs', () => {
    expect(() => new ToolOrchestrator(new ScriptedAdapter([]), {}, { abortGraceMs: -1 })).toThrow(
      InvalidArgumentError,
    );
  });
});
