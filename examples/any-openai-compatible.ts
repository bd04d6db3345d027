/**
 * The same agent against any OpenAI-compatible server: vLLM, Ollama, llama.cpp, OpenRouter.
 *
 *   OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3:8b npx tsx examples/any-openai-compatible.ts
 *
 * `OPENAI_BASE_URL` defaults to Ollama's `http://localhost:11434/v1`; `OPENAI_API_KEY` is sent
 * when set (OpenRouter needs one, local servers usually accept anything). Run `npm run build` first.
 */
import { z } from 'zod';
import { OpenAIAdapter } from 'tool-orchestrator/openai';
import { defineTool, ModelProviderError, ToolOrchestrator } from 'tool-orchestrator';

const baseURL = process.env['OPENAI_BASE_URL'] || 'http://localhost:11434/v1';
const model = process.env['OPENAI_MODEL'] || 'qwen3:8b';

const multiply = defineTool({
  name: 'multiply',
  description: 'Multiply two numbers exactly.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});

const adapter = new OpenAIAdapter({
  model,
  baseURL,
  apiKey: process.env['OPENAI_API_KEY'] || 'not-needed',
  maxRetries: 1,
});
const orchestrator = new ToolOrchestrator(adapter, { multiply }, { maxTurns: 5, stream: true });
orchestrator.on('content_delta', (event) => process.stdout.write(event.data.delta));

try {
  const result = await orchestrator.run([
    { role: 'user', content: process.argv[2] ?? 'What is 17 * 23? Use the tool.' },
  ]);
  console.log(`\n\n[${result.stopReason}] ${result.turns} turns via ${baseURL}`);
} catch (error) {
  if (!(error instanceof ModelProviderError)) throw error;
  console.error(`\n${error.name} (${error.code}): ${error.message}`);
  console.error(`Is a server listening at ${baseURL}? Set OPENAI_BASE_URL and OPENAI_MODEL.`);
  process.exit(1);
}
