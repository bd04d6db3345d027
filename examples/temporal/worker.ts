// Run with: npx tsx examples/temporal/worker.ts (server at $TEMPORAL_ADDRESS, default localhost:7233)
// Needs a Temporal server (e.g. `temporal server start-dev`), OPENAI_API_KEY, and
// `npm install @temporalio/worker @temporalio/workflow @temporalio/activity @temporalio/common`.
// The worker runs the workflows (workflows.ts, bundled into Temporal's sandbox) and the
// activities: the model calls, the tool calls, and the context-request loop's two steps.
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { z } from 'zod';
import { defineTool } from 'tool-orchestrator';
import { createContextProviders } from 'tool-orchestrator/explore';
import { OpenAIAdapter } from 'tool-orchestrator/openai';
import { createTemporalActivities, createTraceSinks } from 'tool-orchestrator/temporal';
import { createJsonlSink } from 'tool-orchestrator/trace';

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks an order up',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ orderId, status: 'shipped' }),
});
const refund = defineTool({
  name: 'refund',
  description: 'Refunds an order',
  parameters: z.object({ orderId: z.string() }),
  needsApproval: true,
  // Activities run at least once: the run id and the call id make an idempotency key.
  execute: ({ orderId }, { runId, toolCallId }) => `refunded ${orderId} (key ${runId}/${toolCallId})`,
});

const traces = createJsonlSink('temporal-traces.jsonl');
const worker = await Worker.create({
  connection: await NativeConnection.connect({
    address: process.env['TEMPORAL_ADDRESS'] ?? 'localhost:7233',
  }),
  taskQueue: 'agents',
  workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
  activities: createTemporalActivities({
    // Temporal retries the activity: the client's own retries are turned off.
    adapters: { openai: new OpenAIAdapter({ model: 'gpt-4o-mini', maxRetries: 0 }) },
    tools: { lookup, refund },
    contextProviders: createContextProviders({ root: process.cwd() }),
    traceEmitter: (event) => traces.write(event),
  }),
  // The runs' trace events leave the workflow sandbox through this sink, once (not on replay).
  sinks: createTraceSinks((event) => traces.write(event)),
});
await worker.run();
