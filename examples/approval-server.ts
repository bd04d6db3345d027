// Run with: npx tsx examples/approval-server.ts
// Human approval over HTTP: POST /runs starts a run that pauses before a dangerous tool;
// POST /runs/:id/approvals decides, in another request, and the run goes on from its checkpoint.
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { FileCheckpointStore, ToolOrchestrator, defineTool } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';

const refunds: string[] = [];
const refund = defineTool({
  name: 'refund',
  description: 'Refund an order',
  parameters: z.object({ orderId: z.string(), amount: z.number() }),
  // Small refunds go through; larger ones wait for a person.
  needsApproval: ({ amount }) => amount > 50,
  // context.toolCallId is a ready-made idempotency key for the payment provider.
  execute: ({ orderId, amount }, context) => {
    refunds.push(`${orderId}:${amount}:${context.toolCallId}`);
    return { refunded: amount };
  },
});

// A scripted model, so the example runs offline; use createOpenAIAdapter(...) in production.
const model = new ScriptedAdapter([
  ScriptedAdapter.toolCalls([
    ['refund', { orderId: 'A-1', amount: 20 }, 'call_small'],
    ['refund', { orderId: 'B-2', amount: 400 }, 'call_large'],
  ]),
  (messages) =>
    ScriptedAdapter.text(
      `Done: ${messages
        .filter((m) => m.role === 'tool')
        .map((m) => m.content)
        .join(' / ')}`,
    ),
]);

const dir = await mkdtemp(join(tmpdir(), 'approval-server-'));
const orchestrator = new ToolOrchestrator(
  model,
  { refund },
  {
    checkpointStore: new FileCheckpointStore({ dir }),
  },
);

async function readJson(request: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body === '' ? {} : JSON.parse(body);
}

const server = createServer(async (request, response) => {
  const send = (status: number, value: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
  try {
    if (request.method === 'POST' && request.url === '/runs') {
      const { prompt } = (await readJson(request)) as { prompt: string };
      const result = await orchestrator.run([{ role: 'user', content: prompt }]);
      // The state is in the store: only the run id and what waits for a decision go to the client.
      return send(200, {
        runId: result.runId,
        stopReason: result.stopReason,
        pendingApprovals: result.pendingApprovals ?? [],
        content: result.content,
      });
    }
    const match = /^\/runs\/([^/]+)\/approvals$/.exec(request.url ?? '');
    if (request.method === 'POST' && match !== null) {
      const approvals = (await readJson(request)) as Record<string, { approved: boolean; reason?: string }>;
      const result = await orchestrator.resume(decodeURIComponent(match[1]!), { approvals });
      return send(200, {
        runId: result.runId,
        stopReason: result.stopReason,
        pendingApprovals: result.pendingApprovals ?? [],
        content: result.content,
      });
    }
    send(404, { error: 'not found' });
  } catch (error) {
    send(400, { error: (error as Error).message });
  }
});

await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as { port: number };
const post = async (path: string, body: unknown) =>
  (
    await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: JSON.stringify(body) })
  ).json() as Promise<{
    runId: string;
    stopReason: string;
    pendingApprovals: { toolCallId: string; name: string; arguments: string }[];
    content: string;
  }>;

// Request 1: start. The small refund runs; the large one waits.
const started = await post('/runs', { prompt: 'Refund A-1 and B-2' });
console.log(
  `started: ${started.stopReason}, waiting: ${started.pendingApprovals.map((p) => `${p.name} ${p.arguments}`).join(', ')}`,
);
console.log(`refunds so far: ${refunds.join(', ')}`);

// Request 2, later: a person approves, and the run goes on from its checkpoint.
const decided = await post(`/runs/${started.runId}/approvals`, {
  [started.pendingApprovals[0]!.toolCallId]: { approved: true },
});
console.log(`resumed: ${decided.stopReason}: ${decided.content}`);
console.log(`refunds: ${refunds.join(', ')}`);

server.close();
await rm(dir, { recursive: true, force: true });
