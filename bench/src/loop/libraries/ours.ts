import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import type { ModelAdapter, ModelResponse } from 'tool-orchestrator';
import { pageText } from '../scenarios.js';
import type { LoopLibrary, Script } from '../scenarios.js';
import { addDescription, addParameters, pageDescription, pageParameters } from '../tool-schemas.js';

/** tool-orchestrator with its defaults, over a plain-object zero-latency `ModelAdapter`. */
export const ours: LoopLibrary = {
  name: 'ours',
  async prepare(script: Script) {
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
      { maxTurns: script.scenario.turns.length, toolConcurrency: 64 },
    );
    const messages = [{ role: 'user' as const, content: 'Run the benchmark script.' }];
    return async () => (await orchestrator.run(messages)).content;
  },
};
