/**
 * A one-tool agent on Claude with extended thinking, streaming its answer and its thinking.
 *
 *   ANTHROPIC_API_KEY=sk-ant-... npx tsx examples/anthropic.ts "What is 17 * 23?"
 *
 * `ANTHROPIC_MODEL` picks the model (default `claude-sonnet-4-6`); `ANTHROPIC_BASE_URL` another
 * server that speaks the Messages API. Run `npm run build` first: the example imports the package as
 * a user would.
 */
import { z } from 'zod';
import { AnthropicAdapter } from 'tool-orchestrator/anthropic';
import { defineTool, ToolOrchestrator } from 'tool-orchestrator';

const apiKey = process.env['ANTHROPIC_API_KEY'];
if (!apiKey) {
  console.error(
    'ANTHROPIC_API_KEY is not set. Export your Anthropic API key as ANTHROPIC_API_KEY and run again.',
  );
  process.exit(2);
}

const multiply = defineTool({
  name: 'multiply',
  description: 'Multiply two numbers exactly.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});

const baseURL = process.env['ANTHROPIC_BASE_URL'];
const adapter = new AnthropicAdapter({
  model: process.env['ANTHROPIC_MODEL'] ?? 'claude-sonnet-4-6',
  // The key is given here, so it may go to ANTHROPIC_BASE_URL when that names another host.
  apiKey,
  ...(baseURL ? { baseURL } : {}),
  thinking: { type: 'enabled', budgetTokens: 2048 },
});
const orchestrator = new ToolOrchestrator(adapter, { multiply }, { maxTurns: 5, stream: true });
orchestrator.on('reasoning_delta', (event) => process.stderr.write(event.data.delta));
orchestrator.on('content_delta', (event) => process.stdout.write(event.data.delta));
orchestrator.on('tool_call', (event) =>
  console.error(`\n[tool] ${event.data.toolCall.function.name} ${event.data.toolCall.function.arguments}`),
);

const question = process.argv[2] ?? 'What is 17 * 23? Use the tool.';
const result = await orchestrator.run([{ role: 'user', content: question }]);
const { promptTokens, cachedPromptTokens } = result.usage;
console.log(
  `\n\n[${result.stopReason}] ${result.turns} turns, ${result.usage.totalTokens} tokens (${cachedPromptTokens} of ${promptTokens} prompt tokens read from cache)`,
);
