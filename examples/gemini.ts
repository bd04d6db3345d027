/**
 * A one-tool agent on Gemini with thinking, streaming its answer and its thought summaries.
 *
 *   GEMINI_API_KEY=... npx tsx examples/gemini.ts "What is 17 * 23?"
 *
 * `GEMINI_MODEL` picks the model (default `gemini-3-flash-preview`); `GEMINI_BASE_URL` another
 * server that speaks the Gemini API. Needs `@google/genai` 2.x (`npm install @google/genai@2`). Run
 * `npm run build` first: the example imports the package as a user would.
 */
import { z } from 'zod';
import { GeminiAdapter } from 'tool-orchestrator/gemini';
import { defineTool, ToolOrchestrator } from 'tool-orchestrator';

const apiKey = process.env['GEMINI_API_KEY'];
if (!apiKey) {
  console.error('GEMINI_API_KEY is not set. Export your Gemini API key as GEMINI_API_KEY and run again.');
  process.exit(2);
}

const multiply = defineTool({
  name: 'multiply',
  description: 'Multiply two numbers exactly.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});

const baseURL = process.env['GEMINI_BASE_URL'];
const adapter = new GeminiAdapter({
  model: process.env['GEMINI_MODEL'] ?? 'gemini-3-flash-preview',
  // The key is given here, so it may go to GEMINI_BASE_URL when that names another host.
  apiKey,
  ...(baseURL ? { baseURL } : {}),
  thinking: { thinkingLevel: 'LOW', includeThoughts: true },
});
const orchestrator = new ToolOrchestrator(adapter, { multiply }, { maxTurns: 5, stream: true });
orchestrator.on('reasoning_delta', (event) => process.stderr.write(event.data.delta));
orchestrator.on('content_delta', (event) => process.stdout.write(event.data.delta));
orchestrator.on('tool_call', (event) =>
  console.error(`\n[tool] ${event.data.toolCall.function.name} ${event.data.toolCall.function.arguments}`),
);

const question = process.argv[2] ?? 'What is 17 * 23? Use the tool.';
const result = await orchestrator.run([{ role: 'user', content: question }]);
const { completionTokens, reasoningTokens } = result.usage;
console.log(
  `\n\n[${result.stopReason}] ${result.turns} turns, ${result.usage.totalTokens} tokens (${reasoningTokens} of ${completionTokens} completion tokens were thoughts)`,
);
