import OpenAI from 'openai';
import { z } from 'zod';
import { pageText } from '../scenarios.js';
import type { LoopLibrary, Script } from '../scenarios.js';
import { addDescription, addParameters, pageDescription, pageParameters } from '../tool-schemas.js';

/**
 * openai 6 `chat.completions.runTools` with a custom `fetch` that answers each request at once with
 * a pre-serialized chat completion (no sockets). `parse` validates with the same zod schemas.
 */
export const openaiRunTools: LoopLibrary = {
  name: 'openai runTools',
  async prepare(script: Script) {
    const bodies = script.scenario.turns.map((turn, index) =>
      JSON.stringify({
        id: `chatcmpl_${index}`,
        object: 'chat.completion',
        created: 0,
        model: 'bench',
        choices: [
          {
            index: 0,
            finish_reason: turn.calls.length === 0 ? 'stop' : 'tool_calls',
            logprobs: null,
            message:
              turn.calls.length === 0
                ? { role: 'assistant', content: turn.text, refusal: null }
                : {
                    role: 'assistant',
                    content: null,
                    refusal: null,
                    tool_calls: turn.calls.map((call) => ({
                      id: call.id,
                      type: 'function',
                      function: { name: call.name, arguments: call.arguments },
                    })),
                  },
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      }),
    );
    const headers = { 'content-type': 'application/json' };
    const client = new OpenAI({
      apiKey: 'bench',
      baseURL: 'http://127.0.0.1:9/v1',
      maxRetries: 0,
      fetch: async () => {
        const index = script.turn;
        script.next();
        return new Response(bodies[index], { status: 200, headers });
      },
    });
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'add',
          description: addDescription,
          parameters: z.toJSONSchema(addParameters) as Record<string, unknown>,
          parse: (raw: string) => addParameters.parse(JSON.parse(raw)),
          function: ({ a, b }: { a: number; b: number }) => {
            script.executions++;
            return a + b;
          },
        },
      },
      {
        type: 'function' as const,
        function: {
          name: 'page',
          description: pageDescription,
          parameters: z.toJSONSchema(pageParameters) as Record<string, unknown>,
          parse: (raw: string) => pageParameters.parse(JSON.parse(raw)),
          function: () => {
            script.executions++;
            return pageText;
          },
        },
      },
    ];
    const maxChatCompletions = script.scenario.turns.length;
    return async () => {
      const runner = client.chat.completions.runTools(
        { model: 'bench', messages: [{ role: 'user', content: 'Run the benchmark script.' }], tools },
        { maxChatCompletions },
      );
      return (await runner.finalContent()) ?? '';
    };
  },
};
