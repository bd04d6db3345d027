import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Package from 'tool-orchestrator';
import type { ModelAdapter, ModelResponse, ToolOrchestratorOptions } from 'tool-orchestrator';
import { pageText } from '../scenarios.js';
import type { LoopLibrary, PreparedRun, Script } from '../scenarios.js';
import { addDescription, addParameters, pageDescription, pageParameters } from '../tool-schemas.js';

/** How a run of ours is made: `run()`, or `stream()` with a consumer that reads every event. */
export interface OursVariant {
  readonly options?: ToolOrchestratorOptions;
  readonly via: 'run' | 'stream';
}

/**
 * The package: this checkout's build, or the `dist/` of another checkout (`--baseline`, say main's),
 * which must resolve the same dependencies (a `node_modules` beside it).
 */
export async function loadPackage(packageRoot?: string): Promise<typeof Package> {
  return (await (packageRoot === undefined
    ? import('tool-orchestrator')
    : import(pathToFileURL(join(packageRoot, 'dist', 'index.js')).href))) as typeof Package;
}

/** Prepares tool-orchestrator over a plain-object zero-latency `ModelAdapter`, with `variant`'s options. */
export async function prepareOurs(
  script: Script,
  variant: OursVariant,
  packageRoot?: string,
): Promise<PreparedRun> {
  const { ToolOrchestrator, defineTool } = await loadPackage(packageRoot);
  const responses: ModelResponse[] = script.scenario.turns.map((turn) =>
    turn.calls.length === 0
      ? { content: turn.text, finish_reason: 'stop' }
      : {
          content: null,
          finish_reason: 'tool_calls',
          tool_calls: turn.calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        },
  );
  const adapter: ModelAdapter = {
    provider: 'bench',
    call() {
      const index = script.turn;
      script.next();
      return Promise.resolve(responses[index]!);
    },
  };
  const add = defineTool({
    name: 'add',
    description: addDescription,
    parameters: addParameters,
    execute: ({ a, b }) => {
      script.executions++;
      return a + b;
    },
  });
  const page = defineTool({
    name: 'page',
    description: pageDescription,
    parameters: pageParameters,
    execute: () => {
      script.executions++;
      return pageText;
    },
  });
  const orchestrator = new ToolOrchestrator(
    adapter,
    { add, page },
    { maxTurns: script.scenario.turns.length, toolConcurrency: 64, ...variant.options },
  );
  const messages = [{ role: 'user' as const, content: 'Run the benchmark script.' }];
  if (variant.via === 'run') return async () => (await orchestrator.run(messages)).content;
  return async () => {
    const stream = orchestrator.stream(messages);
    let events = 0;
    for await (const event of stream) if (event.seq >= 0) events++;
    const result = await stream.result;
    if (events !== result.traces.length) throw new Error(`read ${events} events of ${result.traces.length}`);
    return result.content;
  };
}

/** tool-orchestrator with its defaults (the loop guard on), through `run()`. */
export const ours: LoopLibrary = {
  name: 'ours',
  prepare: (script) => prepareOurs(script, { via: 'run' }),
};

/** The same, from another checkout's build (`--baseline`). */
export function oursAt(packageRoot: string): LoopLibrary {
  return { name: 'baseline', prepare: (script) => prepareOurs(script, { via: 'run' }, packageRoot) };
}
