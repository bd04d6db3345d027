import { expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { RunResult, StopReason, TraceEventOf } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

it('infers tool input from a zod schema', () => {
  defineTool({
    name: 'add',
    description: 'Add',
    parameters: z.object({ a: z.number(), b: z.string().optional() }),
    execute: (input, context) => {
      expectTypeOf(input).toEqualTypeOf<{ a: number; b?: string | undefined }>();
      expectTypeOf(context.requestId).toEqualTypeOf<string>();
      expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
      return input.a;
    },
  });
});

it('types run results and event listeners', () => {
  const orchestrator = new ToolOrchestrator(new ScriptedAdapter([]), {});
  expectTypeOf(orchestrator.run([])).resolves.toEqualTypeOf<RunResult>();
  expectTypeOf<RunResult['stopReason']>().toEqualTypeOf<StopReason | 'awaiting_approval'>();
  orchestrator.on('tool_result', (event) => {
    expectTypeOf(event).toEqualTypeOf<TraceEventOf<'tool_result'>>();
    expectTypeOf(event.data.durationMs).toEqualTypeOf<number>();
  });
});
