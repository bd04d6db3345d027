import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import {
  InvalidArgumentError,
  MemoryCheckpointStore,
  StructuredOutputError,
  ToolOrchestrator,
  defineTool,
} from '../../../src/index.js';
import type { ChatMessage, RunResult, TraceEvent } from '../../../src/index.js';
import { ScriptedAdapter } from '../../../src/testing/index.js';
import { expectValidTranscript } from '../../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const weather = z.object({ city: z.string(), celsius: z.number() });
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a city up',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21 degrees`,
});
const warnings = (traces: readonly TraceEvent[]): string[] =>
  traces.flatMap((event) => (event.type === 'warning' ? [event.data.code] : []));

describe('a typed output through a final-answer tool (an adapter without native structured output)', () => {
  it('offers the final-answer tool beside the others and returns its arguments as result.output', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['lookup', { city: 'Paris' }]]),
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris', celsius: 21 }]]),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, { lookup }, { output: weather });
    const result = await orchestrator.run([user('Weather in Paris?')]);
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(result.stopReason).toBe('final');
    expect(adapter.calls[0]!.tools.map((tool) => tool.function.name)).toEqual(['lookup', 'final_answer']);
    expect(adapter.calls[0]!.tools[1]!.function.parameters).toMatchObject({
      type: 'object',
      required: ['city', 'celsius'],
    });
    expect(adapter.calls[0]!.options.responseFormat).toBeUndefined();
    expectValidTranscript(result.messages);
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Final answer received.' });
  });

  it('shows the model what is wrong once, then takes the repaired answer', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris', celsius: 'warm' }]]),
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris', celsius: 21 }]]),
    ]);
    const result = await new ToolOrchestrator(adapter, { lookup }, { output: weather }).run([
      user('Weather?'),
    ]);
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(warnings(result.traces)).toContain('output_invalid');
    const repair = adapter.calls[1]!;
    expect(repair.options.toolChoice).toEqual({ type: 'function', function: { name: 'final_answer' } });
    expect(repair.tools.map((tool) => tool.function.name)).toEqual(['final_answer']);
    const shown = repair.messages.at(-1)!;
    expect(shown.role).toBe('tool');
    expect(String(shown.content)).toContain('celsius');
    expectValidTranscript(result.messages);
  });

  it('throws StructuredOutputError with the raw answer and the issues when the repair misses too', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris' }]]),
      ScriptedAdapter.toolCalls([['final_answer', { city: 7, celsius: 21 }]]),
    ]);
    const error = await new ToolOrchestrator(adapter, { lookup }, { output: weather })
      .run([user('Weather?')])
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(StructuredOutputError);
    const failure = error as StructuredOutputError;
    expect(failure.code).toBe('structured_output_invalid');
    expect(failure.schemaName).toBe('final_answer');
    expect(failure.repaired).toBe(true);
    expect(failure.rawOutput).toBe('{"city":7,"celsius":21}');
    expect(failure.issues.map((issue) => issue.path)).toEqual([['city']]);
    expect(failure.attempts).toBe(2);
  });

  it('forces the final-answer tool when the model answers in text, and accepts text that is already valid JSON', async () => {
    const forced = new ScriptedAdapter([
      ScriptedAdapter.text('It is 21 degrees in Paris.'),
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris', celsius: 21 }]]),
    ]);
    const result = await new ToolOrchestrator(forced, { lookup }, { output: weather }).run([
      user('Weather?'),
    ]);
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(forced.calls[1]!.options.toolChoice).toEqual({
      type: 'function',
      function: { name: 'final_answer' },
    });
    expect(result.content).toBe('');
    expectValidTranscript(result.messages);

    const direct = new ScriptedAdapter([ScriptedAdapter.text('```json\n{"city":"Oslo","celsius":3}\n```')]);
    const fromText = await new ToolOrchestrator(direct, { lookup }, { output: weather }).run([user('?')]);
    expect(fromText.output).toEqual({ city: 'Oslo', celsius: 3 });
    expect(direct.calls).toHaveLength(1);
  });

  it('leaves out other calls of the turn that gave the final answer, with a warning', async () => {
    let looked = 0;
    const counted = defineTool({
      name: 'lookup',
      description: 'Looks a city up',
      parameters: z.object({ city: z.string() }),
      execute: () => String(++looked),
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['lookup', { city: 'Paris' }],
        ['final_answer', { city: 'Paris', celsius: 21 }],
      ]),
    ]);
    const result = await new ToolOrchestrator(adapter, { lookup: counted }, { output: weather }).run([
      user('?'),
    ]);
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(looked).toBe(0);
    expect(warnings(result.traces)).toContain('output_with_tool_calls');
    expectValidTranscript(result.messages);
  });

  it('wraps a schema that is not an object in { value } and unwraps the answer', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['cities', { value: ['Paris', 'Oslo'] }]]),
    ]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      { lookup },
      { output: { schema: z.array(z.string()), name: 'cities', description: 'The cities' } },
    );
    const result = await orchestrator.run([user('Cities?')]);
    expect(result.output).toEqual(['Paris', 'Oslo']);
    expect(adapter.calls[0]!.tools[1]!.function).toMatchObject({
      name: 'cities',
      description: 'The cities',
      parameters: { type: 'object', properties: { value: { type: 'array' } }, required: ['value'] },
    });
  });

  it('takes a zod 3 schema as well, typed from it', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['final_answer', { city: 7 }]]),
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Nice' }]]),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { lookup },
      { output: z3.object({ city: z3.string() }) },
    ).run([user('?')]);
    const city: string | undefined = result.output?.city;
    expect(city).toBe('Nice');
    expect(adapter.calls[0]!.tools[1]!.function.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
    expect(String(adapter.calls[1]!.messages.at(-1)!.content)).toContain('city');
  });

  it('validates a JSON Schema output', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'integer', minimum: 0 } },
      required: ['answer'],
    };
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['final_answer', { answer: -1 }]]),
      ScriptedAdapter.toolCalls([['final_answer', { answer: 5 }]]),
    ]);
    const result = await new ToolOrchestrator(adapter, { lookup }, { output: schema }).run([user('?')]);
    expect(result.output).toEqual({ answer: 5 });
    expect(String(adapter.calls[1]!.messages.at(-1)!.content)).toContain('answer');
  });
});

describe('a typed output through native structured output', () => {
  const native = (script: ConstructorParameters<typeof ScriptedAdapter>[0]) =>
    new ScriptedAdapter(script, { supportsResponseFormat: true });

  it('sends responseFormat on every call and parses the JSON answer', async () => {
    const adapter = native([
      ScriptedAdapter.toolCalls([['lookup', { city: 'Paris' }]]),
      ScriptedAdapter.text('{"city":"Paris","celsius":21}'),
    ]);
    const result = await new ToolOrchestrator(adapter, { lookup }, { output: weather }).run([user('?')]);
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(result.content).toBe('{"city":"Paris","celsius":21}');
    for (const call of adapter.calls) {
      expect(call.tools.map((tool) => tool.function.name)).toEqual(['lookup']);
      expect(call.options.responseFormat).toMatchObject({
        type: 'json_schema',
        name: 'final_answer',
        strict: false,
        schema: { type: 'object', required: ['city', 'celsius'] },
      });
    }
  });

  it('repairs an answer that is not JSON with a user message naming the problem', async () => {
    const adapter = native([
      ScriptedAdapter.text('Paris, 21'),
      ScriptedAdapter.text('{"city":"Paris","celsius":21}'),
    ]);
    const result = await new ToolOrchestrator(adapter, { lookup }, { output: weather }).run([user('?')]);
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    const repair = adapter.calls[1]!;
    expect(repair.options.toolChoice).toBe('none');
    expect(repair.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(String(repair.messages.at(-1)!.content)).toContain('expected JSON');
    expectValidTranscript(result.messages);
  });

  it("refuses mode 'native' with an adapter that has none, and takes mode 'tool' with one that has", async () => {
    expect(
      () =>
        new ToolOrchestrator(
          new ScriptedAdapter([]),
          { lookup },
          { output: { schema: weather, mode: 'native' } },
        ),
    ).toThrow(InvalidArgumentError);
    const adapter = native([ScriptedAdapter.toolCalls([['final_answer', { city: 'Rome', celsius: 30 }]])]);
    const result = await new ToolOrchestrator(adapter, { lookup }).run([user('?')], undefined, {
      output: { schema: weather, mode: 'tool' },
    });
    expect(result.output).toEqual({ city: 'Rome', celsius: 30 });
    expect(adapter.calls[0]!.options.responseFormat).toBeUndefined();
  });
});

describe('a run that ends without a final answer', () => {
  const loopForever = (turns: number) =>
    Array.from({ length: turns }, (_value, index) =>
      ScriptedAdapter.toolCalls([['lookup', { city: `City ${index}` }]], {}),
    );

  it('after maxTurns, makes one call with only the final-answer tool, forced', async () => {
    const adapter = new ScriptedAdapter([
      ...loopForever(2),
      ScriptedAdapter.toolCalls([['final_answer', { city: 'City 1', celsius: 4 }]]),
    ]);
    const result = await new ToolOrchestrator(adapter, { lookup }, { output: weather, maxTurns: 2 }).run([
      user('?'),
    ]);
    expect(result.stopReason).toBe('max_turns');
    expect(result.output).toEqual({ city: 'City 1', celsius: 4 });
    expect(adapter.calls[2]!.tools.map((tool) => tool.function.name)).toEqual(['final_answer']);
    expectValidTranscript(result.messages);
  });

  it('after a stop condition, with native output, calls with the tools off', async () => {
    const adapter = new ScriptedAdapter(
      [...loopForever(1), ScriptedAdapter.text('{"city":"X","celsius":1}')],
      {
        supportsResponseFormat: true,
      },
    );
    const result = await new ToolOrchestrator(
      adapter,
      { lookup },
      { output: weather, stopWhen: () => true },
    ).run([user('?')]);
    expect(result.stopReason).toBe('stop_condition');
    expect(result.output).toEqual({ city: 'X', celsius: 1 });
    expect(adapter.calls[1]!.options.toolChoice).toBe('none');
    expect(adapter.calls[1]!.options.responseFormat).toBeDefined();
  });

  it('makes no call past a token limit and says why there is no output', async () => {
    const usage = {
      promptTokens: 50,
      completionTokens: 50,
      totalTokens: 100,
      reasoningTokens: 0,
      cachedPromptTokens: 0,
    };
    const adapter = new ScriptedAdapter([ScriptedAdapter.toolCalls([['lookup', { city: 'A' }]], { usage })]);
    const result = await new ToolOrchestrator(
      adapter,
      { lookup },
      {
        output: weather,
        budget: { maxTotalTokens: 50 },
      },
    ).run([user('?')]);
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.output).toBeUndefined();
    expect(adapter.calls).toHaveLength(1);
    expect(warnings(result.traces)).toContain('output_missing');
  });
});

describe('output and the rest of the run', () => {
  it('is kept in the checkpoint of an ended run, so resuming it returns the output', async () => {
    const store = new MemoryCheckpointStore();
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Lima', celsius: 18 }]]),
    ]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      { lookup },
      { output: weather, checkpointStore: store },
    );
    const first = await orchestrator.run([user('?')], undefined, { runId: 'run-1' });
    const again: RunResult<{ city: string; celsius: number }> = await orchestrator.resume('run-1');
    expect(again.output).toEqual(first.output);
    expect(again.output).toEqual({ city: 'Lima', celsius: 18 });
  });

  it('waits with an approval and comes once the resumed run answers', async () => {
    const book = defineTool({
      name: 'book',
      description: 'Books a table',
      parameters: z.object({ city: z.string() }),
      needsApproval: true,
      execute: ({ city }) => `booked in ${city}`,
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['book', { city: 'Lyon' }, 'call_book']]),
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Lyon', celsius: 12 }]]),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, { book }, { output: weather });
    const paused = await orchestrator.run([user('Book in Lyon')]);
    expect(paused.stopReason).toBe('awaiting_approval');
    expect(paused.output).toBeUndefined();
    expect(warnings(paused.traces)).not.toContain('output_missing');
    const done = await orchestrator.resume(paused.state!, { approvals: { call_book: { approved: true } } });
    expect(done.stopReason).toBe('final');
    expect(done.output).toEqual({ city: 'Lyon', celsius: 12 });
    expectValidTranscript(done.messages);
  });

  it('comes back from stream() too, and the run option replaces the orchestrator option', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.toolCalls([['answer', { n: 3 }]])]);
    const orchestrator = new ToolOrchestrator(adapter, { lookup }, { output: weather });
    const stream = orchestrator.stream([user('?')], undefined, {
      output: { schema: z.object({ n: z.number() }), name: 'answer' },
    });
    for await (const _event of stream) {
      // Drained.
    }
    const result = await stream.result;
    expect(result.output).toEqual({ n: 3 });
  });

  it('with repair off, throws on the first answer that misses the schema, in either mode', async () => {
    const toolMode = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris' }]]),
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris', celsius: 21 }]]),
    ]);
    const toolError = await new ToolOrchestrator(
      toolMode,
      { lookup },
      { output: { schema: weather, repair: false } },
    )
      .run([user('?')])
      .catch((thrown: unknown) => thrown);
    expect(toolError).toBeInstanceOf(StructuredOutputError);
    expect((toolError as StructuredOutputError).attempts).toBe(1);
    expect((toolError as StructuredOutputError).issues.map((issue) => issue.path)).toEqual([['celsius']]);
    expect(toolMode.calls).toHaveLength(1);

    const prose = new ScriptedAdapter([
      ScriptedAdapter.text('It is warm.'),
      ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris', celsius: 21 }]]),
    ]);
    await expect(
      new ToolOrchestrator(prose, { lookup }).run([user('?')], undefined, {
        output: { schema: weather, repair: false },
      }),
    ).rejects.toThrow(StructuredOutputError);
    expect(prose.calls).toHaveLength(1);

    const native = new ScriptedAdapter(
      [ScriptedAdapter.text('Paris, 21'), ScriptedAdapter.text('{"city":"Paris","celsius":21}')],
      { supportsResponseFormat: true },
    );
    const nativeError = await new ToolOrchestrator(
      native,
      { lookup },
      { output: { schema: weather, repair: false } },
    )
      .run([user('?')])
      .catch((thrown: unknown) => thrown);
    expect(nativeError).toBeInstanceOf(StructuredOutputError);
    expect((nativeError as StructuredOutputError).rawOutput).toBe('Paris, 21');
    expect((nativeError as StructuredOutputError).repaired).toBe(false);
    expect(native.calls).toHaveLength(1);
    expect(
      () => new ToolOrchestrator(native, { lookup }, { output: { schema: weather, repair: 'no' as never } }),
    ).toThrow(/output\.repair/);
  });

  it('refuses a bad output option, naming it', () => {
    const adapter = new ScriptedAdapter([]);
    expect(() => new ToolOrchestrator(adapter, { lookup }, { output: 'json' as never })).toThrow(/output/);
    expect(
      () => new ToolOrchestrator(adapter, { lookup }, { output: { schema: weather, name: 'lookup' } }),
    ).toThrow(/output\.name.*tool of the registry/);
    expect(
      () => new ToolOrchestrator(adapter, { lookup }, { output: { schema: weather, name: 'a b' } }),
    ).toThrow(InvalidArgumentError);
    expect(() =>
      new ToolOrchestrator(adapter, { lookup }).stream([user('?')], undefined, {
        output: { schema: 5 } as never,
      }),
    ).toThrow(/runOptions\.output\.schema/);
  });
});
