import { Agent, Runner, Usage, setTracingDisabled, tool } from '@openai/agents';
import type { Model, ModelResponse } from '@openai/agents';
import { pageText } from '../scenarios.js';
import type { LoopLibrary, Script } from '../scenarios.js';
import { addDescription, addParameters, pageDescription, pageParameters } from '../tool-schemas.js';

/** @openai/agents `Runner.run` with `maxTurns`, over a custom zero-latency `Model`; tracing off (it would export over the network). */
export const openaiAgents: LoopLibrary = {
  name: '@openai/agents',
  async prepare(script: Script) {
    setTracingDisabled(true);
    const responses: ModelResponse[] = script.scenario.turns.map((turn, index) => ({
      usage: new Usage(),
      responseId: `response_${index}`,
      output:
        turn.calls.length === 0
          ? [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: turn.text }],
              },
            ]
          : turn.calls.map((call) => ({
              type: 'function_call' as const,
              callId: call.id,
              name: call.name,
              arguments: call.arguments,
              status: 'completed' as const,
            })),
    }));
    const model: Model = {
      async getResponse() {
        const index = script.turn;
        script.next();
        return responses[index]!;
      },
      getStreamedResponse() {
        throw new Error('The benchmark model does not stream.');
      },
    };
    const agent = new Agent({
      name: 'bench',
      instructions: 'Run the benchmark script.',
      model,
      tools: [
        tool({
          name: 'add',
          description: addDescription,
          parameters: addParameters,
          execute: ({ a, b }) => {
            script.executions++;
            return a + b;
          },
        }),
        tool({
          name: 'page',
          description: pageDescription,
          parameters: pageParameters,
          execute: () => {
            script.executions++;
            return pageText;
          },
        }),
      ],
    });
    const runner = new Runner({ tracingDisabled: true });
    const maxTurns = script.scenario.turns.length;
    return async () => {
      const result = await runner.run(agent, 'Run the benchmark script.', { maxTurns });
      return String(result.finalOutput);
    };
  },
};
