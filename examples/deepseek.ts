/**
 * A one-tool agent on DeepSeek in thinking mode, streaming its reasoning and answer.
 *
 *   DEEPSEEK_API_KEY=sk-... npx tsx examples/deepseek.ts "What is 17 * 23?"
 *
 * `DEEPSEEK_MODEL` picks the model (default `deepseek-v4-flash`; DeepSeek renames models often,
 * the adapter hard-codes none). Run `npm run build` first: the example imports the package as a
 * user would.
 */
import { z } from 'zod';
import { DeepSeekAdapter } from 'tool-orchestrator/deepseek';
import { defineTool, ToolOrchestrator } from 'tool-orchestrator';

if (!process.env['DEEPSEEK_API_KEY']) {
  console.error(
    'DEEPSEEK_API_KEY is not set. Export your DeepSeek API key as DEEPSEEK_API_KEY and run again.',
  );
  process.exit(2);
}

const multiply = defineTool({
  name: 'multiply',
  description: 'Multiply two numbers exactly.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});

// Thinking mode: reasoning_content is replayed on every tool turn, as DeepSeek requires.
const adapter = new DeepSeekAdapter({
  model: process.env['DEEPSEEK_MODEL'] ?? 'deepseek-v4-flash',
  thinking: 'enabled',
});
const orchestrator = new ToolOrchestrator(adapter, { multiply }, { maxTurns: 5, stream: true });
orchestrator.on('reasoning_delta', (event) => process.stderr.write(event.data.delta));
orchestrator.on('content_delta', (event) => process.stdout.write(event.data.delta));
orchestrator.on('tool_call', (event) =>
  console.error(`\n[tool] ${event.data.toolCall.function.name} ${event.data.toolCall.function.arguments}`),
);

const question = process.argv[2] ?? 'What is 17 * 23? Use the tool.';
const result = await orchestrator.run([{ role: 'user', content: question }]);
console.log(
  `\n\n[${result.stopReason}] ${result.turns} turns, ${result.usage.totalTokens} tokens (${result.usage.reasoningTokens} reasoning, ${result.usage.cachedPromptTokens} cached)`,
);
