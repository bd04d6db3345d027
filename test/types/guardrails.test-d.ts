import { expectTypeOf, it } from 'vitest';
import { GuardrailTrippedError, ToolOrchestrator } from '../../src/index.js';
import type {
  GuardrailKind,
  GuardrailOptions,
  GuardrailVerdict,
  RunOptions,
  StopReason,
  ToolGuardrailVerdict,
  TraceEventOf,
} from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

it('types the guardrails by kind, with the run context', () => {
  expectTypeOf<'guardrail_tripped'>().toMatchTypeOf<StopReason>();
  expectTypeOf<RunOptions<{ tenant: string }>['guardrails']>().toEqualTypeOf<
    GuardrailOptions<{ tenant: string }> | undefined
  >();
  new ToolOrchestrator<{ tenant: string }>(
    new ScriptedAdapter([]),
    {},
    {
      context: { tenant: 'acme' },
      guardrails: {
        input: [
          {
            name: 'tenant',
            runInParallel: true,
            check: ({ context, messages }) => {
              expectTypeOf(context.tenant).toEqualTypeOf<string>();
              expectTypeOf(messages.length).toEqualTypeOf<number>();
              return { type: 'pass' };
            },
          },
        ],
        toolInput: [{ name: 'replace', check: () => ({ type: 'replace', result: 'no' }) }],
        // @ts-expect-error: only tool guardrails replace a result
        output: [{ name: 'replace', check: () => ({ type: 'replace', result: 'no' }) }],
      },
    },
  );
  expectTypeOf<GuardrailVerdict>().toMatchTypeOf<ToolGuardrailVerdict>();
});

it('types the error and the trace event', () => {
  const error = new GuardrailTrippedError({
    guardrail: 'g',
    kind: 'tool_output',
    tripwireMessage: 'm',
    result: 1,
  });
  expectTypeOf(error.kind).toEqualTypeOf<GuardrailKind>();
  expectTypeOf(error.result).toEqualTypeOf<number>();
  expectTypeOf<TraceEventOf<'guardrail'>['data']['verdict']>().toEqualTypeOf<
    'pass' | 'tripwire' | 'replace'
  >();
});
