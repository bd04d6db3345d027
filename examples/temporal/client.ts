// Run with: npx tsx examples/temporal/client.ts "Refund order 42" (with worker.ts running; server at $TEMPORAL_ADDRESS, default localhost:7233)
// Starts the support workflow, approves the refund it waits for, and prints the answer and the
// run's trace, read back through the workflow's query.
import { Client, Connection } from '@temporalio/client';
import {
  approveToolCallsSignal,
  pendingApprovalsQuery,
  traceEventsQuery,
} from 'tool-orchestrator/temporal/workflow';
import type { supportWorkflow } from './workflows.js';

const client = new Client({
  connection: await Connection.connect({ address: process.env['TEMPORAL_ADDRESS'] ?? 'localhost:7233' }),
});
const handle = await client.workflow.start<typeof supportWorkflow>('supportWorkflow', {
  taskQueue: 'agents',
  workflowId: `support-${Date.now()}`,
  args: [process.argv[2] ?? 'Refund order 42'],
});

// Approvals: the run waits, durably, until every waiting call is decided.
const deadline = Date.now() + 60_000;
while (Date.now() < deadline) {
  const pending = await handle.query(pendingApprovalsQuery);
  if (pending.length > 0) {
    console.log(`approving ${pending.map((call) => `${call.name}(${call.arguments})`).join(', ')}`);
    await handle.signal(
      approveToolCallsSignal,
      Object.fromEntries(pending.map((call) => [call.toolCallId, { approved: true }])),
    );
    break;
  }
  const { status } = await handle.describe();
  if (status.name !== 'RUNNING') break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}

console.log(await handle.result());
const events = await handle.query(traceEventsQuery);
console.log(`${events.length} trace events: ${[...new Set(events.map((event) => event.type))].join(', ')}`);
