import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  GuardrailTrippedError,
  ToolOrchestrator,
  ToolOrchestratorError,
  defineTool,
} from '../../../src/index.js';
import type { ChatMessage, InputGuardrail, InputGuardrailInfo, TraceEvent } from '../../../src/index.js';
import { ScriptedAdapter } from '../../../src/testing/index.js';
import { expectValidTranscript } from '../../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

const guardrailEvents = (traces: readonly TraceEvent[]) =>
  traces.flatMap((event) => (event.type === 'guardrail' ? [event.data] : []));

/** Resolves once `condition` holds, polling every millisecond; rejects after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Rejects with what `run` rejected with; fails the test when it resolves. */
async function rejection(run: Promise<unknown>): Promise<GuardrailTrippedError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GuardrailTrippedError);
  return error as GuardrailTrippedError;
}

function searchTool(log: string[]) {
  return defineTool({
    name: 'search',
    description: 'Search',
    parameters: z.object({ query: z.string() }),
    execute: ({ query }) => {
      log.push(query);
      return `results for ${query}`;
    },
  });
}

describe('input guardrails', () => {
  it('pass: the guardrail sees the starting messages, context and run id before the model is called', async () => {
    const seen: InputGuardrailInfo<{ tenant: string }>[] = [];
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('hello')]);
    const orchestrator = new ToolOrchestrator<{ tenant: string }>(
      adapter,
      {},
      {
        context: { tenant: 'acme' },
        guardrails: {
          input: [
            {
              name: 'topic',
              check: (info) => {
                seen.push(info);
                expect(adapter.calls).toHaveLength(0);
                return { type: 'pass' };
              },
            },
          ],
        },
      },
    );
    const result = await orchestrator.run([user('hi')], 'Be brief.', { runId: 'run-1' });

    expect(result).toMatchObject({ content: 'hello', stopReason: 'final' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.messages).toEqual([{ role: 'system', content: 'Be brief.' }, user('hi')]);
    expect(seen[0]!.context).toEqual({ tenant: 'acme' });
    expect(seen[0]!.runId).toBe('run-1');
    expect(seen[0]!.signal.aborted).toBe(false);
    expect(guardrailEvents(result.traces)).toEqual([
      { name: 'topic', kind: 'input', verdict: 'pass', durationMs: expect.any(Number) },
    ]);
  });

  it('tripwire: the model is never called, run() rejects with GuardrailTrippedError carrying the partial result', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('never sent')]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      {},
      {
        guardrails: {
          input: [
            {
              name: 'no-homework',
              check: () => ({ type: 'tripwire', message: 'Homework request.', info: { score: 0.97 } }),
            },
          ],
        },
      },
    );
    const error = await rejection(orchestrator.run([user('solve 2x+3=12')]));

    expect(ToolOrchestratorError.isInstance(error)).toBe(true);
    expect(error.code).toBe('guardrail_tripped');
    expect(error).toMatchObject({
      guardrail: 'no-homework',
      kind: 'input',
      tripwireMessage: 'Homework request.',
      info: { score: 0.97 },
      toolCall: undefined,
    });
    expect(error.message).toContain('Guardrail "no-homework" (input) tripped: Homework request.');
    expect(adapter.calls).toHaveLength(0);
    const result = error.result as Awaited<ReturnType<typeof orchestrator.run>>;
    expect(result).toMatchObject({ stopReason: 'guardrail_tripped', content: '', turns: 0 });
    expect(result.messages).toEqual([user('solve 2x+3=12')]);
    expect(guardrailEvents(result.traces)).toEqual([
      {
        name: 'no-homework',
        kind: 'input',
        verdict: 'tripwire',
        message: 'Homework request.',
        durationMs: expect.any(Number),
      },
    ]);
    expect(result.traces.at(-1)).toMatchObject({
      type: 'run_end',
      data: { stopReason: 'guardrail_tripped' },
    });
  });

  it('a check that throws trips with the error as info and cause', async () => {
    const failure = new Error('classifier unavailable');
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('x')]),
      {},
      {
        guardrails: {
          input: [
            {
              name: 'classifier',
              check: () => {
                throw failure;
              },
            },
          ],
        },
      },
    );
    const error = await rejection(orchestrator.run([user('hi')]));

    expect(error.info).toBe(failure);
    expect(error.cause).toBe(failure);
    expect(error.tripwireMessage).toContain('classifier unavailable');
  });

  it('a value that is not a verdict trips, naming what it returned', async () => {
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('x')]),
      {},
      {
        guardrails: {
          input: [{ name: 'sloppy', check: () => ({ type: 'replace', result: 'no' }) as never }],
        },
      },
    );
    const error = await rejection(orchestrator.run([user('hi')]));

    expect(error.tripwireMessage).toMatch(/^Guardrail "sloppy" returned .*replace.*, not a verdict/);
  });

  it('the run adds its own guardrails after the orchestrator’s', async () => {
    const order: string[] = [];
    const guardrail = (name: string): InputGuardrail => ({
      name,
      check: () => {
        order.push(name);
        return { type: 'pass' };
      },
    });
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('ok')]),
      {},
      { guardrails: { input: [guardrail('orchestrator')] } },
    );
    await orchestrator.run([user('hi')], undefined, { guardrails: { input: [guardrail('run')] } });

    expect(order).toEqual(['orchestrator', 'run']);
  });

  it('stream(): result rejects with GuardrailTrippedError', async () => {
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('x')]),
      {},
      {
        guardrails: { input: [{ name: 'block', check: () => ({ type: 'tripwire', message: 'no' }) }] },
      },
    );
    const stream = orchestrator.stream([user('hi')]);
    const events: TraceEvent[] = [];
    const iterated = (async () => {
      for await (const event of stream) events.push(event);
    })().catch(() => undefined);
    const error = await rejection(stream.result);
    await iterated;

    expect(error.guardrail).toBe('block');
    expect(events.some((event) => event.type === 'guardrail' && event.data.verdict === 'tripwire')).toBe(
      true,
    );
  });

  it("with traceContent 'metadata' the guardrail event carries no message text", async () => {
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('x')]),
      {},
      {
        traceContent: 'metadata',
        guardrails: {
          input: [{ name: 'block', check: () => ({ type: 'tripwire', message: 'secret words' }) }],
        },
      },
    );
    const error = await rejection(orchestrator.run([user('hi')]));
    const result = error.result as { traces: TraceEvent[] };

    expect(guardrailEvents(result.traces)).toEqual([
      { name: 'block', kind: 'input', verdict: 'tripwire', message: '', durationMs: expect.any(Number) },
    ]);
    expect(JSON.stringify(result.traces)).not.toContain('secret words');
    expect(error.tripwireMessage).toBe('secret words');
  });
});

describe('input guardrails with runInParallel', () => {
  it('the first model call starts at once; when the guardrail trips, that call is aborted and nothing of it is used', async () => {
    let callSignal: AbortSignal | undefined;
    const adapter = new ScriptedAdapter([
      async (_messages, _tools, options) => {
        callSignal = options.signal;
        await until(() => options.signal?.aborted === true);
        return ScriptedAdapter.toolCalls([['search', { query: 'x' }, 'c1']]);
      },
    ]);
    const executed: string[] = [];
    const orchestrator = new ToolOrchestrator(
      adapter,
      { search: searchTool(executed) },
      {
        guardrails: {
          input: [
            {
              name: 'slow-check',
              runInParallel: true,
              check: async () => {
                await until(() => adapter.calls.length === 1);
                return { type: 'tripwire', message: 'off topic' };
              },
            },
          ],
        },
      },
    );
    const error = await rejection(orchestrator.run([user('hi')]));
    const result = error.result as Awaited<ReturnType<typeof orchestrator.run>>;

    expect(callSignal?.aborted).toBe(true);
    expect(executed).toEqual([]);
    expect(result).toMatchObject({ stopReason: 'guardrail_tripped', content: '' });
    expect(result.messages).toEqual([user('hi')]);
    expect(result.traces.some((event) => event.type === 'tool_call')).toBe(false);
  });

  it('a response that arrived before the tripwire is dropped, its usage counted', async () => {
    let release = (): void => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const executed: string[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['search', { query: 'x' }, 'c1']], {
        usage: {
          promptTokens: 10,
          completionTokens: 5,
          totalTokens: 15,
          reasoningTokens: 0,
          cachedPromptTokens: 0,
        },
      }),
    ]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      { search: searchTool(executed) },
      {
        guardrails: {
          input: [
            {
              name: 'late',
              runInParallel: true,
              check: async () => {
                await released;
                return { type: 'tripwire', message: 'late no' };
              },
            },
          ],
        },
      },
    );
    const running = orchestrator.run([user('hi')], undefined, {
      onEvent: (event) => {
        if (event.type === 'llm_call') release();
      },
    });
    const error = await rejection(running);
    const result = error.result as Awaited<ReturnType<typeof orchestrator.run>>;

    expect(executed).toEqual([]);
    expect(result.messages).toEqual([user('hi')]);
    expect(result.usage.totalTokens).toBe(15);
    expect(result.turns).toBe(1);
    expectValidTranscript(result.messages);
  });

  it('pass: the run goes on with the call made beside the guardrail', async () => {
    let guardrailStarted = false;
    const adapter = new ScriptedAdapter([
      async () => {
        // The call runs while the guardrail is still checking.
        await until(() => guardrailStarted);
        return ScriptedAdapter.text('answer');
      },
    ]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      {},
      {
        guardrails: {
          input: [
            {
              name: 'parallel',
              runInParallel: true,
              check: async () => {
                guardrailStarted = true;
                await until(() => adapter.calls.length === 1);
                return { type: 'pass' };
              },
            },
          ],
        },
      },
    );
    const result = await orchestrator.run([user('hi')]);

    expect(result).toMatchObject({ content: 'answer', stopReason: 'final' });
    expect(guardrailEvents(result.traces)).toEqual([
      expect.objectContaining({ name: 'parallel', verdict: 'pass' }),
    ]);
  });

  it('a blocking guardrail that trips keeps the call from starting and aborts the parallel ones', async () => {
    let parallelSignal: AbortSignal | undefined;
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('never')]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      {},
      {
        guardrails: {
          input: [
            {
              name: 'parallel',
              runInParallel: true,
              check: async ({ signal }) => {
                parallelSignal = signal;
                await until(() => signal.aborted);
                return { type: 'pass' };
              },
            },
            { name: 'blocking', check: () => ({ type: 'tripwire', message: 'stop' }) },
          ],
        },
      },
    );
    const error = await rejection(orchestrator.run([user('hi')]));

    expect(error.guardrail).toBe('blocking');
    expect(adapter.calls).toHaveLength(0);
    expect(parallelSignal?.aborted).toBe(true);
    // The parallel check's verdict came after the tripwire: it is not traced.
    const result = error.result as { traces: TraceEvent[] };
    expect(guardrailEvents(result.traces).map((event) => event.name)).toEqual(['blocking']);
  });

  it('only the first model call is guarded', async () => {
    let checks = 0;
    const executed: string[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['search', { query: 'x' }, 'c1']]),
      ScriptedAdapter.text('done'),
    ]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      { search: searchTool(executed) },
      {
        guardrails: {
          input: [
            {
              name: 'count',
              runInParallel: true,
              check: () => {
                checks++;
                return { type: 'pass' };
              },
            },
          ],
        },
      },
    );
    const result = await orchestrator.run([user('hi')]);

    expect(result.content).toBe('done');
    expect(checks).toBe(1);
  });
});
