/**
 * The runs of the scale-out benchmark: a scripted model that answers by the transcript (the same
 * in every process) and a tool that sleeps 10 ms. Three model turns per run: one call, then two,
 * then the final text.
 */
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import type { ChatMessage, ModelAdapter, ModelResponse, ToolCall } from 'tool-orchestrator';

export const toolMs = 10;
export const turnsPerRun = 3;

const call = (id: string, step: number): ToolCall => ({
  id,
  type: 'function',
  function: { name: 'work', arguments: JSON.stringify({ step }) },
});

const model: ModelAdapter = {
  provider: 'bench',
  model: 'scale-script',
  call: async (messages: readonly ChatMessage[]): Promise<ModelResponse> => {
    const turn = messages.filter((message) => message.role === 'assistant').length;
    if (turn === 0) return { content: null, tool_calls: [call('call-1', 1)] };
    if (turn === 1) return { content: null, tool_calls: [call('call-2', 2), call('call-3', 3)] };
    const results = messages.filter((message) => message.role === 'tool').map((message) => message.content);
    return { content: results.join(' | ') };
  },
};

const work = defineTool({
  name: 'work',
  description: 'Works for 10 ms',
  parameters: z.object({ step: z.number() }),
  execute: async ({ step }) => {
    await new Promise((resolve) => setTimeout(resolve, toolMs));
    return `step ${step} done`;
  },
});

/** The orchestrator of the benchmark runs. */
export function scaleOrchestrator(): ToolOrchestrator {
  return new ToolOrchestrator(model, { work }, { collectTraces: false });
}

/** The expected final text of every run. */
export const expectedContent = 'step 1 done | step 2 done | step 3 done';

/** The input of run `index`. */
export function scaleInput(index: number): ChatMessage[] {
  return [{ role: 'user', content: `run ${index}` }];
}
