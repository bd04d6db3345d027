import { generateText, stepCountIs, tool } from 'ai';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { pageText } from '../scenarios.js';
import type { LoopLibrary, Script } from '../scenarios.js';
import { addDescription, addParameters, pageDescription, pageParameters } from '../tool-schemas.js';

const usage: LanguageModelV3GenerateResult['usage'] = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** ai 6 `generateText` with `stopWhen: stepCountIs(n)` over its own `MockLanguageModelV3`. */
export const aiSdk: LoopLibrary = {
  name: 'ai',
  async prepare(script: Script) {
    const results: LanguageModelV3GenerateResult[] = script.scenario.turns.map((turn) => ({
      content:
        turn.calls.length === 0
          ? [{ type: 'text', text: turn.text }]
          : turn.calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: call.arguments,
            })),
      finishReason: { unified: turn.calls.length === 0 ? 'stop' : 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    }));
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        // The mock keeps every call's options for test assertions; drop them so they are not counted as a leak.
        model.doGenerateCalls.length = 0;
        const index = script.turn;
        script.next();
        return results[index]!;
      },
    });
    const tools = {
      add: tool({
        description: addDescription,
        inputSchema: addParameters,
        execute: ({ a, b }) => {
          script.executions++;
          return a + b;
        },
      }),
      page: tool({
        description: pageDescription,
        inputSchema: pageParameters,
        execute: () => {
          script.executions++;
          return pageText;
        },
      }),
    };
    const stopWhen = stepCountIs(script.scenario.turns.length);
    return async () => {
      const result = await generateText({ model, tools, stopWhen, prompt: 'Run the benchmark script.' });
      return result.text;
    };
  },
};
