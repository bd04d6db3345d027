// Run with: npx tsx examples/handoffs.ts
import { z } from 'zod';
import { ToolOrchestrator, defineTool, handoff } from 'tool-orchestrator';
import type { ChatMessage } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';

const lookupInvoice = defineTool({
  name: 'lookup_invoice',
  description: 'Finds an invoice by its number',
  parameters: z.object({ number: z.string() }),
  execute: async ({ number }) => ({ number, amountUsd: 120, paid: true }),
});

/** What a scripted model saw on its call: its system prompt and its tools. */
const show = (
  agent: string,
  messages: readonly ChatMessage[],
  tools: readonly { function: { name: string } }[],
) =>
  console.log(
    `${agent} model: system "${String(messages[0]?.content)}", ${messages.length} messages, tools ${tools
      .map((tool) => tool.function.name)
      .join(', ')}`,
  );

// Scripted models: triage hands the billing question to billing, which looks the invoice up and
// hands the conversation back; triage then answers.
const triageModel = new ScriptedAdapter([
  (messages, tools) => {
    show('triage', messages, tools);
    return ScriptedAdapter.toolCalls([['transfer_to_billing', {}]]);
  },
  (messages, tools) => {
    show('triage', messages, tools);
    return ScriptedAdapter.text('Invoice 1042 was paid: 120 USD. Anything else?');
  },
]);
const billingModel = new ScriptedAdapter([
  (messages, tools) => {
    show('billing', messages, tools);
    return ScriptedAdapter.toolCalls([['lookup_invoice', { number: '1042' }]]);
  },
  ScriptedAdapter.toolCalls([['transfer_to_triage', {}]]),
]);

// The agents refer to each other: `handoffs` as a function is read at the first run.
const triage: ToolOrchestrator = new ToolOrchestrator(
  triageModel,
  {},
  {
    name: 'triage',
    instructions: 'You route customers to the right desk.',
    handoffs: () => [
      // Billing starts from the customer's own words: no tool calls of the triage agent.
      handoff(billing, { inputFilter: (history) => history.filter((message) => message.role === 'user') }),
    ],
  },
);
const billing = new ToolOrchestrator(
  billingModel,
  { lookup_invoice: lookupInvoice },
  {
    name: 'billing',
    description: 'Invoices, payments and refunds',
    instructions: 'You answer billing questions.',
    handoffs: [triage],
  },
);

triage.on('handoff', (event) => console.log(`handoff: ${event.data.from} -> ${event.data.to}`));
const result = await triage.run([{ role: 'user', content: 'Was invoice 1042 paid?' }]);
console.log(`${result.agent} answered: ${result.content} (${result.stopReason} after ${result.turns} turns)`);
