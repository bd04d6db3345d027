import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, ToolRunner, defineTool } from '../../src/index.js';
import type { ChatMessage, ModelAdapter, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { trappedProxy, undescribable } from '../support/hostile-values.js';
import { expectPairedToolEvents, expectValidTranscript } from '../support/transcript.js';

const user: ChatMessage = { role: 'user', content: 'go' };
describe('thrown values that cannot be converted to text', () => {
  it('answers a tool that throws Object.create(null) or a trapping Proxy with a tool error and goes on', async () => {
    const nullPrototype = defineTool({
      name: 'null_prototype',
      description: 'Throws an object with no prototype',
      parameters: z.object({}),
      execute: () => {
        throw Object.create(null);
      },
    });
    const proxy = defineTool({
      name: 'proxy',
      description: 'Rejects with a Proxy whose every trap throws',
      parameters: z.object({}),
      execute: () => Promise.reject(trappedProxy()),
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['null_prototype', {}, 'a'],
        ['proxy', {}, 'b'],
      ]),
      ScriptedAdapter.text('recovered'),
    ]);
    const result = await new ToolOrchestrator(adapter, { null_prototype: nullPrototype, proxy }).run([user]);
    expect(result.stopReason).toBe('final');
    expect(result.content).toBe('recovered');
    const errors = result.messages
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.parse(message.content as string).error);
    expect(errors).toEqual([
      `Tool "null_prototype" failed: ${undescribable}`,
      `Tool "proxy" failed: ${undescribable}`,
    ]);
    expectValidTranscript(result.messages);
    expectPairedToolEvents(result.traces);
  });

  it('rethrows an adapter rejection that cannot be converted to text, after error and run_end', async () => {
    const thrown = Object.create(null) as object;
    const adapter: ModelAdapter = { call: () => Promise.reject(thrown) };
    const events: TraceEvent[] = [];
    const error = await new ToolOrchestrator(
      adapter,
      {},
      { traceEmitter: (event) => void events.push(event) },
    )
      .run([user])
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(error).toBe(thrown);
    expect(events.map((event) => event.type)).toEqual(['run_start', 'error', 'run_end']);
    expect(events[1]!.data).toEqual({
      name: 'Error',
      message: undescribable,
    });
  });

  it('answers every call in the trace when a custom tool runner throws, then fails with its error', async () => {
    const thrown = Object.create(null) as object;
    class BrokenRunner extends ToolRunner {
      override executeToolCalls(): Promise<never> {
        return Promise.reject(thrown);
      }
    }
    const ping = defineTool({
      name: 'ping',
      description: 'Ping',
      parameters: z.object({}),
      execute: () => 'pong',
    });
    const events: TraceEvent[] = [];
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([
          ['ping', {}, 'a'],
          ['ping', {}, 'b'],
        ]),
      ]),
      { ping },
      { toolRunner: new BrokenRunner({ ping }), traceEmitter: (event) => void events.push(event) },
    );
    const error = await orchestrator.run([user]).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBe(thrown);
    expectPairedToolEvents(events);
    expect(events.filter((event) => event.type === 'tool_result').map((event) => event.data.error)).toEqual([
      `The tool runner failed before answering this call: ${undescribable}`,
      `The tool runner failed before answering this call: ${undescribable}`,
    ]);
    expect(events.slice(-2).map((event) => event.type)).toEqual(['error', 'run_end']);
  });

  it('rethrows a trapping Proxy from the adapter as it is', async () => {
    const thrown = trappedProxy();
    const adapter: ModelAdapter = { call: () => Promise.reject(thrown) };
    const controller = new AbortController();
    const events: TraceEvent[] = [];
    const orchestrator = new ToolOrchestrator(
      adapter,
      {},
      {
        signal: controller.signal,
        traceEmitter: (event) => void events.push(event),
      },
    );
    // Kept in a variable: no promise can resolve to a Proxy whose `then` getter throws.
    let error: unknown;
    await orchestrator.run([user]).catch((reason: unknown) => {
      error = reason;
    });
    expect(error).toBe(thrown);
    expect(events.map((event) => event.type)).toEqual(['run_start', 'error', 'run_end']);
  });
});
