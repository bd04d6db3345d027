import { expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator } from '../../src/index.js';
import type { OutputOf, RunResult, RunStream } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

const weather = z.object({ city: z.string(), celsius: z.number() });
type Weather = { city: string; celsius: number };

it('types result.output from the orchestrator output schema, given alone or in output options', () => {
  const alone = new ToolOrchestrator(new ScriptedAdapter([]), {}, { output: weather });
  expectTypeOf(alone.run([])).toEqualTypeOf<Promise<RunResult<Weather>>>();
  expectTypeOf(alone.stream([])).toEqualTypeOf<RunStream<Weather>>();
  expectTypeOf(alone.resume('run-1')).toEqualTypeOf<Promise<RunResult<Weather>>>();
  const withOptions = new ToolOrchestrator(
    new ScriptedAdapter([]),
    {},
    { output: { schema: weather, name: 'w' } },
  );
  expectTypeOf(withOptions.run([])).resolves.toHaveProperty('output').toEqualTypeOf<Weather | undefined>();
});

it("types result.output from a run's own output, and leaves it unknown without one", () => {
  const orchestrator = new ToolOrchestrator(new ScriptedAdapter([]), {});
  expectTypeOf(orchestrator.run([])).toEqualTypeOf<Promise<RunResult>>();
  expectTypeOf(orchestrator.run([], undefined, { output: z.array(z.string()) })).toEqualTypeOf<
    Promise<RunResult<string[]>>
  >();
  expectTypeOf(orchestrator.run([], undefined, { maxTurns: 3 })).toEqualTypeOf<Promise<RunResult>>();
  const json = { type: 'object', properties: { n: { type: 'number' } } };
  expectTypeOf(orchestrator.run([], undefined, { output: json })).toEqualTypeOf<
    Promise<RunResult<unknown>>
  >();
  expectTypeOf<OutputOf<typeof weather>>().toEqualTypeOf<Weather>();
});
