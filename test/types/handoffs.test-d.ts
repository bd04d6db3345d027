import { expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, handoff } from '../../src/index.js';
import type { ChatMessage, Handoff, HandoffInputFilter, RunResult, TraceEventOf } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

it('takes agents of any context and output type, lazily, and names the agent in the result and events', () => {
  const billing = new ToolOrchestrator<{ tenant: string }, z.ZodObject<{ amount: z.ZodNumber }>>(
    new ScriptedAdapter([]),
    {},
    { name: 'billing', output: z.object({ amount: z.number() }) },
  );
  const refunds = new ToolOrchestrator(new ScriptedAdapter([]), {}, { name: 'refunds' });
  const triage = new ToolOrchestrator(
    new ScriptedAdapter([]),
    {},
    {
      name: 'triage',
      handoffs: () => [billing, handoff(refunds, { inputFilter: (history) => history.slice(-1) })],
    },
  );
  expectTypeOf(handoff(billing)).toEqualTypeOf<Handoff>();
  expectTypeOf<HandoffInputFilter>().parameter(0).toEqualTypeOf<readonly ChatMessage[]>();
  expectTypeOf<RunResult['agent']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<TraceEventOf<'handoff'>['data']>().toEqualTypeOf<{
    readonly from: string;
    readonly to: string;
    readonly toolCallId: string;
  }>();
  expectTypeOf(triage.name).toEqualTypeOf<string | undefined>();
  // @ts-expect-error a handoff goes to an orchestrator, not to a tool or a name
  new ToolOrchestrator(new ScriptedAdapter([]), {}, { name: 'x', handoffs: ['billing'] });
});
