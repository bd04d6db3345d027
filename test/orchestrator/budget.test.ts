import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BudgetExceededError, InvalidArgumentError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, RunResult, Usage } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectPairedToolEvents, expectValidTranscript } from '../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

const usage = (promptTokens: number, completionTokens: number, cachedPromptTokens = 0): Usage => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
  reasoningTokens: 0,
  cachedPromptTokens,
});

function stepTool(executed: number[], now?: { value: number; perCall: number }) {
  return defineTool({
    name: 'step',
    description: 'One step',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      executed.push(n);
      if (now !== undefined) now.value += now.perCall;
      return `step ${n} done`;
    },
  });
}

const steps = (turn: number, count = 1, extra: Record<string, unknown> = {}) =>
  ScriptedAdapter.toolCalls(
    Array.from(
      { length: count },
      (_value, index) => ['step', { n: turn * 10 + index }, `t${turn}c${index}`] as const,
    ),
    extra,
  );

const budgetWarnings = (result: RunResult) =>
  result.traces.flatMap((event) =>
    event.type === 'warning' && event.data.code === 'budget_exceeded' ? [event.data] : [],
  );

describe('budget', () => {
  it('maxToolCalls still holds for the calls before a repeat that the loop guard stops the run on', async () => {
    // Found by the property test (seed -1072615918): the guard's stop skipped the budget for the
    // earlier calls of the batch, and a tool ran with maxToolCalls 0.
    const executed: number[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['step', { n: 1 }, 'a'],
        ['step', { n: 1 }, 'b'],
      ]),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { step: stepTool(executed) },
      { loopGuard: { identicalCalls: 2, action: 'stop' }, budget: { maxToolCalls: 0 } },
    ).run([user('go')]);
    expect(executed).toEqual([]);
    expect(result.stopReason).toBe('loop_detected');
    const codes = result.traces.flatMap((event) =>
      event.type === 'tool_result' ? [event.data.errorCode] : [],
    );
    expect(codes).toEqual(['budget_exceeded', 'loop_detected']);
    // The budget's warning names the stop reason the run really has.
    expect(budgetWarnings(result).map((warning) => warning.message)).toEqual([
      expect.stringContaining("(stopReason 'loop_detected')"),
    ]);
    expectValidTranscript(result.messages);
  });

  it('maxTotalTokens: no model call once the tokens are spent; the turn that spent them runs no tools', async () => {
    const executed: number[] = [];
    const adapter = new ScriptedAdapter([
      steps(0, 1, { usage: usage(400, 100) }),
      steps(1, 1, { usage: usage(450, 100) }),
      ScriptedAdapter.text('never'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { step: stepTool(executed) },
      { budget: { maxTotalTokens: 1_000 } },
    ).run([user('go')]);
    expect(result.stopReason).toBe('budget_exceeded');
    expect(adapter.calls).toHaveLength(2);
    expect(executed).toEqual([0]);
    expect(result.usage.totalTokens).toBe(1_050);
    expect(budgetWarnings(result)).toEqual([
      {
        code: 'budget_exceeded',
        limit: 'maxTotalTokens',
        message: expect.stringMatching(
          /^The run reached its budget: maxTotalTokens is 1000 and the run has used 1050 tokens/,
        ),
      },
    ]);
    // The refused call is answered, so the transcript can be sent again.
    const refused = result.traces.filter((event) => event.type === 'tool_result').at(-1)!;
    expect(refused.data.errorCode).toBe('budget_exceeded');
    expectValidTranscript(result.messages);
    expectPairedToolEvents(result.traces);
  });

  it('maxToolCalls: runs calls up to the limit, even within one turn, and refuses the rest', async () => {
    const executed: number[] = [];
    const adapter = new ScriptedAdapter([steps(0, 2), steps(1, 3), ScriptedAdapter.text('never')]);
    const result = await new ToolOrchestrator(
      adapter,
      { step: stepTool(executed) },
      { budget: { maxToolCalls: 3 } },
    ).run([user('go')]);
    expect(executed).toEqual([0, 1, 10]);
    expect(result.stopReason).toBe('budget_exceeded');
    expect(adapter.calls).toHaveLength(2);
    expect(
      result.traces.filter((event) => event.type === 'tool_result').map((event) => event.data.errorCode),
    ).toEqual([undefined, undefined, undefined, 'budget_exceeded', 'budget_exceeded']);
    expect(budgetWarnings(result)).toEqual([expect.objectContaining({ limit: 'maxToolCalls' })]);
    expectValidTranscript(result.messages);
  });

  it('maxToolCalls: a model that answers within the limit is not cut off', async () => {
    const adapter = new ScriptedAdapter([steps(0, 2), ScriptedAdapter.text('two steps were enough')]);
    const result = await new ToolOrchestrator(
      adapter,
      { step: stepTool([]) },
      { budget: { maxToolCalls: 2 } },
    ).run([user('go')]);
    expect(result.stopReason).toBe('final');
    expect(result.content).toBe('two steps were enough');
  });

  it('maxDurationMs: checked before each model call and before each tool call of a batch', async () => {
    const clock = { value: 0, perCall: 40 };
    const executed: number[] = [];
    const adapter = new ScriptedAdapter([steps(0, 3), ScriptedAdapter.text('never')]);
    const result = await new ToolOrchestrator(
      adapter,
      { step: stepTool(executed, clock) },
      { now: () => clock.value, budget: { maxDurationMs: 100 } },
    ).run([user('go')]);
    // Calls start at 0, 40 and 80 ms; the third starts at 80 < 100 and runs; at 120 the run stops before the next model call.
    expect(executed).toEqual([0, 1, 2]);
    expect(adapter.calls).toHaveLength(1);
    expect(result.stopReason).toBe('budget_exceeded');
    expect(budgetWarnings(result)).toEqual([expect.objectContaining({ limit: 'maxDurationMs' })]);

    const slowClock = { value: 0, perCall: 60 };
    const executedSlowly: number[] = [];
    const slow = await new ToolOrchestrator(
      new ScriptedAdapter([steps(0, 3), ScriptedAdapter.text('never')]),
      { step: stepTool(executedSlowly, slowClock) },
      { now: () => slowClock.value, budget: { maxDurationMs: 100 } },
    ).run([user('go')]);
    expect(executedSlowly).toEqual([0, 1]);
    expect(
      slow.traces.filter((event) => event.type === 'tool_result').map((event) => event.data.errorCode),
    ).toEqual([undefined, undefined, 'budget_exceeded']);
    expectValidTranscript(slow.messages);
  });

  it('maxCostUsd with pricing: stops on cost, and RunResult.costUsd and run_end carry the cost', async () => {
    const pricing = { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 };
    const adapter = new ScriptedAdapter([
      steps(0, 1, { usage: usage(100_000, 10_000, 40_000) }),
      steps(1, 1, { usage: usage(200_000, 10_000) }),
      ScriptedAdapter.text('never'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { step: stepTool([]) },
      { budget: { maxCostUsd: 0.5, pricing } },
    ).run([user('go')]);
    // Turn 1: 60k * $2 + 40k * $0.5 + 10k * $8 per million = $0.22. Turn 2 adds 200k * $2 + 10k * $8 = $0.48.
    expect(result.costUsd).toBeCloseTo(0.7, 10);
    expect(result.stopReason).toBe('budget_exceeded');
    expect(adapter.calls).toHaveLength(2);
    expect(budgetWarnings(result)).toEqual([expect.objectContaining({ limit: 'maxCostUsd' })]);
    expect(result.traces.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'budget_exceeded' } });
    expect((result.traces.at(-1)!.data as { costUsd: number }).costUsd).toBeCloseTo(0.7, 10);

    const priced = await new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('hi', { usage: usage(1_000_000, 0) })]),
      {},
      { budget: { pricing } },
    ).run([user('go')]);
    expect(priced.costUsd).toBe(2);
    const unpriced = await new ToolOrchestrator(new ScriptedAdapter([ScriptedAdapter.text('hi')]), {}).run([
      user('go'),
    ]);
    expect('costUsd' in unpriced).toBe(false);
  });

  it("throws BudgetExceededError with the partial result under onCutShort: 'throw'", async () => {
    const adapter = new ScriptedAdapter([steps(0, 2), ScriptedAdapter.text('never')]);
    const error = await new ToolOrchestrator(
      adapter,
      { step: stepTool([]) },
      { onCutShort: 'throw', budget: { maxToolCalls: 1 } },
    )
      .run([user('go')])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    const budgetError = error as BudgetExceededError<RunResult>;
    expect([budgetError.code, budgetError.limit, budgetError.value, budgetError.used]).toEqual([
      'budget_exceeded',
      'maxToolCalls',
      1,
      1,
    ]);
    expect(budgetError.result.stopReason).toBe('budget_exceeded');
    expectValidTranscript(budgetError.result.messages);
    expect(budgetError.message).toContain('Raise budget.maxToolCalls');
  });

  it('makes the tools-off final answer call after a tool-call or time limit, but not after a token or cost limit', async () => {
    const afterCalls = new ScriptedAdapter([steps(0, 2), ScriptedAdapter.text('What I have so far')]);
    const answered = await new ToolOrchestrator(
      afterCalls,
      { step: stepTool([]) },
      { onCutShort: 'final_answer', budget: { maxToolCalls: 1 } },
    ).run([user('go')]);
    expect(answered.stopReason).toBe('budget_exceeded');
    expect(answered.content).toBe('What I have so far');
    expect(afterCalls.calls[1]!.options.toolChoice).toBe('none');

    const afterTokens = new ScriptedAdapter([
      steps(0, 1, { usage: usage(900, 200) }),
      ScriptedAdapter.text('never'),
    ]);
    const cut = await new ToolOrchestrator(
      afterTokens,
      { step: stepTool([]) },
      { onCutShort: 'final_answer', budget: { maxTotalTokens: 1_000 } },
    ).run([user('go')]);
    expect(cut.stopReason).toBe('budget_exceeded');
    expect(afterTokens.calls).toHaveLength(1);

    // At maxTurns, a spent token budget also rules out the final answer call.
    const atMaxTurns = new ScriptedAdapter([
      steps(0, 1, { usage: usage(900, 200) }),
      ScriptedAdapter.text('never'),
    ]);
    const maxed = await new ToolOrchestrator(
      atMaxTurns,
      { step: stepTool([]) },
      { maxTurns: 1, onCutShort: 'final_answer', budget: { maxTotalTokens: 1_000 } },
    ).run([user('go')]);
    expect(maxed.stopReason).toBe('budget_exceeded');
    expect(atMaxTurns.calls).toHaveLength(1);
  });

  it("merges a run's budget over the orchestrator's, limit by limit", async () => {
    const executed: number[] = [];
    const adapter = new ScriptedAdapter([steps(0, 3), ScriptedAdapter.text('never')]);
    const result = await new ToolOrchestrator(
      adapter,
      { step: stepTool(executed) },
      { budget: { maxToolCalls: 10, pricing: { inputPerMillion: 1, outputPerMillion: 1 } } },
    ).run([user('go')], undefined, { budget: { maxToolCalls: 2 } });
    expect(executed).toEqual([0, 1]);
    expect(result.costUsd).toBe(0);
  });

  it('refuses budgets that cannot work, naming the value', async () => {
    const adapter = new ScriptedAdapter([]);
    expect(() => new ToolOrchestrator(adapter, {}, { budget: { maxCostUsd: 1 } })).toThrow(
      /budget.maxCostUsd \(1\): needs budget.pricing/,
    );
    expect(() => new ToolOrchestrator(adapter, {}, { budget: { maxTotalTokens: -5 } })).toThrow(
      /budget.maxTotalTokens \(-5\)/,
    );
    expect(() => new ToolOrchestrator(adapter, {}, { budget: { maxToolCalls: 1.5 } })).toThrow(
      InvalidArgumentError,
    );
    expect(
      () =>
        new ToolOrchestrator(
          adapter,
          {},
          { budget: { pricing: { inputPerMillion: 1, outputPerMillion: -1 } } },
        ),
    ).toThrow(/budget.pricing.outputPerMillion \(-1\)/);
    await expect(
      new ToolOrchestrator(adapter, {}).run([user('go')], undefined, { budget: { maxCostUsd: 2 } }),
    ).rejects.toThrow(/needs budget.pricing/);
  });
});
