import { expectTypeOf, it } from 'vitest';
import { BudgetExceededError, LoopDetectedError, ToolOrchestrator } from '../../src/index.js';
import type {
  BudgetLimit,
  LoopGuardOptions,
  PrepareTurn,
  PrepareTurnHook,
  RepairToolCall,
  RunBudget,
  RunOptions,
  RunResult,
  RunStream,
  StopReason,
  ToolCall,
  TraceEvent,
  TraceEventOf,
} from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

const orchestrator = new ToolOrchestrator(new ScriptedAdapter([]), {});

it('types stream() as a RunStream of trace events, text and a result', () => {
  const stream = orchestrator.stream([{ role: 'user', content: 'hi' }]);
  expectTypeOf(stream).toEqualTypeOf<RunStream>();
  expectTypeOf(stream).toMatchTypeOf<AsyncIterable<TraceEvent>>();
  expectTypeOf(stream.textStream).toEqualTypeOf<AsyncIterable<string>>();
  expectTypeOf(stream.result).toEqualTypeOf<Promise<RunResult>>();
  expectTypeOf(stream.abort).parameters.toEqualTypeOf<[reason?: unknown]>();
  const read = async (): Promise<void> => {
    for await (const event of stream) {
      if (event.type === 'content_delta') expectTypeOf(event.data.delta).toEqualTypeOf<string>();
      if (event.type === 'tool_call_repaired') expectTypeOf(event.data.repaired).toEqualTypeOf<ToolCall>();
    }
  };
  void read;
});

it("narrows on('*') to the discriminated union and on(type) to one event", () => {
  orchestrator.on('*', (event) => {
    expectTypeOf(event).toEqualTypeOf<TraceEvent>();
    if (event.type === 'warning') expectTypeOf(event.data.limit).toEqualTypeOf<BudgetLimit | undefined>();
  });
  orchestrator.on('run_end', (event) => {
    expectTypeOf(event).toEqualTypeOf<TraceEventOf<'run_end'>>();
    expectTypeOf(event.data.costUsd).toEqualTypeOf<number | undefined>();
  });
  // @ts-expect-error: not an event type
  orchestrator.on('tool_done', () => {});
});

it('types the per-run listener and the run controls', () => {
  expectTypeOf<RunOptions['onEvent']>().toEqualTypeOf<((event: TraceEvent) => void) | undefined>();
  expectTypeOf<RunOptions['budget']>().toEqualTypeOf<RunBudget | undefined>();
  expectTypeOf<RunOptions['loopGuard']>().toEqualTypeOf<LoopGuardOptions | boolean | undefined>();
  expectTypeOf<RunResult['costUsd']>().toEqualTypeOf<number | undefined>();
  expectTypeOf<'loop_detected' | 'budget_exceeded'>().toMatchTypeOf<StopReason>();
  expectTypeOf<'refusal'>().toMatchTypeOf<StopReason>();
  // @ts-expect-error: not an action
  const guard: LoopGuardOptions = { action: 'ignore' };
  void guard;
});

it('types the hooks: prepareTurn may return nothing, repairToolCall a call or null', () => {
  const prepare: PrepareTurnHook = ({ turn, tools }) =>
    turn === 0 ? { activeTools: [tools[0]!.function.name] } : undefined;
  const asyncPrepare: PrepareTurnHook = async () => ({ toolChoice: 'required' });
  expectTypeOf<ReturnType<typeof prepare>>().toMatchTypeOf<
    PrepareTurn | undefined | void | Promise<PrepareTurn | undefined | void>
  >();
  const repair: RepairToolCall = ({ toolCall, error }) => (error.code === 'unknown_tool' ? toolCall : null);
  new ToolOrchestrator(new ScriptedAdapter([]), {}, { prepareTurn: prepare, repairToolCall: repair });
  new ToolOrchestrator(new ScriptedAdapter([]), {}, { prepareTurn: asyncPrepare });
  // @ts-expect-error: a repair returns a tool call, not a string
  const wrong: RepairToolCall = () => 'search';
  void wrong;
});

it('types the errors that carry the partial result', () => {
  const error = new BudgetExceededError<RunResult>({
    limit: 'maxToolCalls',
    value: 1,
    used: 1,
    result: {} as RunResult,
  });
  expectTypeOf(error.limit).toEqualTypeOf<BudgetLimit>();
  expectTypeOf(error.result).toEqualTypeOf<RunResult>();
  expectTypeOf(
    new LoopDetectedError<RunResult>({ result: {} as RunResult }).result,
  ).toEqualTypeOf<RunResult>();
});
