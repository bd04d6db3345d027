import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GuardrailTrippedError, ToolOrchestrator, defineTool } from '../../../src/index.js';
import type { ChatMessage, OutputGuardrailInfo, RunResult, TraceEvent } from '../../../src/index.js';
import { ScriptedAdapter } from '../../../src/testing/index.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

const guardrailEvents = (traces: readonly TraceEvent[]) =>
  traces.flatMap((event) => (event.type === 'guardrail' ? [event.data] : []));

async function rejection(run: Promise<unknown>): Promise<GuardrailTrippedError<RunResult>> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GuardrailTrippedError);
  return error as GuardrailTrippedError<RunResult>;
}

const noEmails = {
  name: 'no-emails',
  check: ({ content }: OutputGuardrailInfo) =>
    /@/.test(content)
      ? { type: 'tripwire' as const, message: 'The answer holds an email address.', info: { content } }
      : { type: 'pass' as const },
};

describe('output guardrails', () => {
  it('pass: the guardrail sees the final answer, the transcript before it and no typed output yet', async () => {
    const seen: OutputGuardrailInfo[] = [];
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('All good.')]),
      {},
      {
        guardrails: {
          output: [
            {
              name: 'look',
              check: (info) => {
                seen.push(info);
                return { type: 'pass' };
              },
            },
            noEmails,
          ],
        },
      },
    );
    const result = await orchestrator.run([user('hi')], undefined, { runId: 'r1' });

    expect(result).toMatchObject({ content: 'All good.', stopReason: 'final' });
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'All good.' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ content: 'All good.', output: undefined, runId: 'r1' });
    expect(seen[0]!.messages).toEqual([user('hi')]);
    expect(guardrailEvents(result.traces).map((event) => [event.name, event.kind, event.verdict])).toEqual([
      ['look', 'output', 'pass'],
      ['no-emails', 'output', 'pass'],
    ]);
  });

  it('tripwire: run() rejects, the tripped answer is left out of the transcript and the content', async () => {
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('Write to ceo@example.com')]),
      {},
      { guardrails: { output: [noEmails] } },
    );
    const error = await rejection(orchestrator.run([user('who runs it?')]));

    expect(error).toMatchObject({
      guardrail: 'no-emails',
      kind: 'output',
      tripwireMessage: 'The answer holds an email address.',
      info: { content: 'Write to ceo@example.com' },
    });
    expect(error.result).toMatchObject({ stopReason: 'guardrail_tripped', content: '', turns: 1 });
    expect(error.result.messages).toEqual([user('who runs it?')]);
    expect(error.result.traces.at(-1)).toMatchObject({
      type: 'run_end',
      data: { stopReason: 'guardrail_tripped' },
    });
  });

  it("judges the tools-off answer of onCutShort: 'final_answer'", async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look up',
      parameters: z.object({ name: z.string() }),
      execute: () => 'ceo@example.com',
    });
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['lookup', { name: 'ceo' }, 'c1']]),
        ScriptedAdapter.text('Mail ceo@example.com'),
      ]),
      { lookup },
      { maxTurns: 1, onCutShort: 'final_answer', guardrails: { output: [noEmails] } },
    );
    const error = await rejection(orchestrator.run([user('who?')]));

    expect(error.result.stopReason).toBe('guardrail_tripped');
    expect(error.result.messages.some((message) => message.content === 'Mail ceo@example.com')).toBe(false);
  });

  it('does not judge a run that ends without a final answer', async () => {
    let checks = 0;
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look up',
      parameters: z.object({}),
      execute: () => 'x',
    });
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['lookup', {}, 'c1']], { content: 'Looking.' })]),
      { lookup },
      {
        maxTurns: 1,
        guardrails: {
          output: [
            {
              name: 'count',
              check: () => {
                checks++;
                return { type: 'pass' };
              },
            },
          ],
        },
      },
    );
    const result = await orchestrator.run([user('go')]);

    expect(result.stopReason).toBe('max_turns');
    expect(checks).toBe(0);
  });

  it('the first tripwire decides; the other checks are aborted and not traced', async () => {
    let otherSignal: AbortSignal | undefined;
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('answer')]),
      {},
      {
        guardrails: {
          output: [
            {
              name: 'slow',
              check: ({ signal }) => {
                otherSignal = signal;
                return new Promise((resolve) =>
                  signal.addEventListener('abort', () => resolve({ type: 'pass' }), { once: true }),
                );
              },
            },
            { name: 'fast', check: () => ({ type: 'tripwire', message: 'no' }) },
          ],
        },
      },
    );
    const error = await rejection(orchestrator.run([user('hi')]));

    expect(error.guardrail).toBe('fast');
    expect(otherSignal?.aborted).toBe(true);
    expect(guardrailEvents(error.result.traces).map((event) => event.name)).toEqual(['fast']);
  });

  it('judges the typed output once it is read; a tripwire leaves the answer out and withholds the output', async () => {
    const Contact = z.object({ name: z.string(), email: z.string() });
    const seen: unknown[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['final_answer', { name: 'Ada', email: 'ada@example.com' }]]),
    ]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      {},
      {
        output: Contact,
        guardrails: {
          output: [
            {
              name: 'no-email-fields',
              check: ({ output }) => {
                seen.push(output);
                return typeof (output as { email?: unknown } | undefined)?.email === 'string'
                  ? { type: 'tripwire', message: 'The output holds an email address.' }
                  : { type: 'pass' };
              },
            },
          ],
        },
      },
    );
    const error = await rejection(orchestrator.run([user('Who?')]));
    expect(seen).toEqual([{ name: 'Ada', email: 'ada@example.com' }]);
    expect(error.result.stopReason).toBe('guardrail_tripped');
    expect(error.result.output).toBeUndefined();
    expect(error.result.messages).toEqual([user('Who?')]);
  });
});
