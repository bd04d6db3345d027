// Run with: npx tsx examples/custom-tool.ts
// A custom tool with a zod schema, a timeout, caller context, and the errors a model can recover from.
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';

const inventory = new Map([
  ['apple', 12],
  ['pear', 0],
]);

const checkStock = defineTool({
  name: 'check_stock',
  description: 'How many of an item are in stock. Item names are lower-case singular nouns.',
  parameters: z.object({ item: z.string().min(1) }),
  timeoutMs: 2_000,
  execute: async ({ item }, context) => {
    const count = inventory.get(item);
    if (count === undefined)
      throw new Error(`no item "${item}"; known items: ${[...inventory.keys()].join(', ')}`);
    return { item, count, store: context['storeId'] };
  },
});

// The scripted model makes two mistakes first, to show what it gets back.
const adapter = new ScriptedAdapter([
  ScriptedAdapter.toolCalls([
    ['check_stock', { item: 'apples' }, 'a'], // unknown item: the tool throws
    ['check_stock', '{"item": ', 'b'], // truncated JSON
  ]),
  ScriptedAdapter.toolCalls([['check_stock', { item: 'apple' }, 'c']]),
  ScriptedAdapter.text('We have 12 apples.'),
]);

const orchestrator = new ToolOrchestrator(
  adapter,
  { check_stock: checkStock },
  { context: { storeId: 'oslo-1' } },
);
orchestrator.on('tool_result', (event) => console.log(`${event.data.toolCallId}: ${event.data.content}`));

const result = await orchestrator.run([{ role: 'user', content: 'How many apples are there?' }]);
console.log(`answer: ${result.content} (${result.stopReason}, ${result.turns} turns)`);
