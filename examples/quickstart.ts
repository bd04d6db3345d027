// Run with: npx tsx examples/quickstart.ts
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});

// A scripted model: asks for add(2, 3), then answers. Swap in OpenAIAdapter or DeepSeekAdapter for a real one.
const adapter = new ScriptedAdapter([
  ScriptedAdapter.toolCalls([['add', { a: 2, b: 3 }]]),
  (messages) => ScriptedAdapter.text(`2 + 3 = ${messages.at(-1)?.content}`),
]);

const orchestrator = new ToolOrchestrator(adapter, { add }, { maxTurns: 10 });
orchestrator.on('tool_result', (event) => console.log(`tool ${event.data.name} -> ${event.data.content}`));

const { content, stopReason, turns } = await orchestrator.run(
  [{ role: 'user', content: 'What is 2+3?' }],
  'You are a calculator.',
);
console.log(content, `(${stopReason} after ${turns} turns)`);
