/**
 * A one-tool agent on OpenAI, streaming its answer.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/openai.ts "What is 17 * 23?"
 *
 * `OPENAI_MODEL` picks the model (default `gpt-5-mini`). Run `npm run build` first: the example
 * imports the package as a user would.
 */
import { z } from 'zod';
import { OpenAIAdapter } from 'tool-orchestrator/openai';
import { defineTool, ToolOrchestrator } from 'tool-orchestrator';

if (!process.env['OPENAI_API_KEY']) {
  console.error('OPENAI_API_KEY is not set. Export your OpenAI API key as OPENAI_API_KEY and run again.');
  process.exit(2);
}

const multiply = defineTool({
  name: 'multiply',
  description: 'Multiply two numbers exactly.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});

const adapter = new OpenAIAdapter({ model: process.env['OPENAI_MODEL'] ?? 'gpt-5-mini', strictTools: true });
const orchestrator = new ToolOrchestrator(adapter, { multiply }, { maxTurns: 5, stream: true });
orchestrator.on('content_delta', (event) => process.stdout.write(event.data.delta));
orchestrator.on('tool_call', (event) =>
  console.error(`\n[tool] ${event.data.toolCall.function.name} ${event.data.toolCall.function.arguments}`),
);

const question = process.argv[2] ?? 'What is 17 * 23? Use the tool.';
const result = await orchestrator.run([{ role: 'user', content: question }]);
console.log(`\n\n[${result.stopReason}] ${result.turns} turns, ${result.usage.totalTokens} tokens`);
