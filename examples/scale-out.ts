// Run with: npx tsx examples/scale-out.ts [redis port, default $REDIS_PORT or 6379] (needs a Redis server, and `npm install bullmq ioredis`)
// Runs on a BullMQ queue in Redis: a producer enqueues them, workers (here in the same process; in
// production, one or more per machine) run them, checkpointing every step in Redis.
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import type { ModelAdapter } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';
import { createRunQueue, createRunWorker } from 'tool-orchestrator/bullmq';

const connection = { host: '127.0.0.1', port: Number(process.argv[2] ?? process.env['REDIS_PORT'] ?? 6379) };

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
  // A run taken over after a crash may run this call again: the key makes the refund happen once.
  execute: ({ orderId }, context) => ({
    refunded: orderId,
    idempotencyKey: `${context.runId}:${context.toolCallId}`,
  }),
});

// A scripted model, so the example runs offline: it answers by the transcript alone, the same in
// every worker. Use createOpenAIAdapter(...) in production.
const model: ModelAdapter = {
  model: 'scripted',
  async call(messages) {
    const order = String(messages.find((message) => message.role === 'user')?.content);
    const results = messages.filter((message) => message.role === 'tool').map((message) => message.content);
    if (results.length === 0)
      return ScriptedAdapter.toolCalls([['lookup', { orderId: order }, 'call_lookup']]);
    if (order === 'B-2' && results.length === 1) {
      return ScriptedAdapter.toolCalls([['refund', { orderId: order }, 'call_refund']]);
    }
    return ScriptedAdapter.text(`${order}: ${results.join(' ')}`);
  },
};
const orchestrator = new ToolOrchestrator(model, { lookup, refund });

// The worker side: `concurrency` runs at once; `limiter` keeps under the provider's request rate.
const worker = createRunWorker({
  connection,
  concurrency: 10,
  limiter: { max: 100, duration: 1_000 },
  orchestrator: () => orchestrator,
});

// The producer side (a web server, a cron job): enqueue, then read the result.
const queue = createRunQueue({ connection });
for (const order of ['A-1', 'B-2']) {
  // The run id is the idempotency key of the run: enqueueing it again makes no second run.
  await queue.enqueue({ messages: [{ role: 'user', content: order }], runId: `support-${order}` });
}
console.log((await queue.result('support-A-1', { timeoutMs: 30_000 })).content);
const paused = await queue.result('support-B-2', { timeoutMs: 30_000 });
console.log(
  `${paused.stopReason}: ${paused.pendingApprovals?.map((call) => `${call.name} ${call.arguments}`).join(', ')}`,
);

// Later, maybe in another process: a person approves, and a worker resumes the run from its checkpoint.
await queue.approve('support-B-2', { call_refund: { approved: true } });
console.log((await queue.result('support-B-2', { timeoutMs: 30_000 })).content);

await worker.close();
await queue.close();
