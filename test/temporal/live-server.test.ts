import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';
import type { PendingApproval, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { createTemporalActivities, createTraceSinks } from '../../src/temporal.js';
import {
  agentWorkflow,
  approveToolCallsSignal,
  pendingApprovalsQuery,
  traceEventsQuery,
} from '../../src/temporal-workflow.js';

// No Temporal server can run where these tests are usually run (its test servers are downloaded
// at run time). With one (`temporal server start-dev`), set TEMPORAL_ADDRESS=localhost:7233.
const address = process.env['TEMPORAL_ADDRESS'];
if (address === undefined || address === '') {
  console.log(
    'test/temporal/live-server.test.ts skipped: TEMPORAL_ADDRESS is not set. Start a dev server (temporal server start-dev) and set TEMPORAL_ADDRESS=localhost:7233 to run it.',
  );
}

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const transfer = defineTool({
  name: 'transfer',
  description: 'Transfer money',
  parameters: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => `sent ${amount}`,
});

/** Polls `check` every 100 ms until it returns a value, for at most `timeoutMs`. */
async function eventually<Value>(
  check: () => Promise<Value | undefined>,
  timeoutMs = 20_000,
): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(address === undefined || address === '')('the loop on a real Temporal server', () => {
  it('runs agentWorkflow: tools as activities, traces to the sink and the query, approvals by signal', async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    const taskQueue = `tool-orchestrator-${Date.now()}`;
    const sunk: TraceEvent[] = [];
    const calculator = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 2, b: 3 }, 'call_1']]),
      ScriptedAdapter.text('5'),
    ]);
    const banker = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['transfer', { amount: 10 }, 'call_1']]),
      ScriptedAdapter.text('Sent.'),
    ]);
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: address! }),
      taskQueue,
      workflowBundle: await bundleWorkflowCode({
        workflowsPath: new URL('fixtures/workflows.ts', import.meta.url).pathname,
        logger: new DefaultLogger('WARN'),
      }),
      activities: createTemporalActivities({
        adapters: { calculator, banker },
        tools: { add, transfer },
      }),
      sinks: createTraceSinks((event) => {
        sunk.push(event);
      }),
    });
    const client = new Client({ connection: await Connection.connect({ address: address! }) });
    await worker.runUntil(async () => {
      const sum = await client.workflow.execute(agentWorkflow, {
        taskQueue,
        workflowId: `${taskQueue}-sum`,
        args: [{ messages: [{ role: 'user', content: '2+3?' }], adapter: 'calculator' }],
        workflowExecutionTimeout: '1 minute',
      });
      expect(sum.content).toBe('5');
      expect(sum.traces.find((event) => event.type === 'tool_result')?.data).toMatchObject({ name: 'add' });
      expect(sunk.map((event) => event.runId)).toContain(sum.runId);

      const handle = await client.workflow.start(agentWorkflow, {
        taskQueue,
        workflowId: `${taskQueue}-transfer`,
        args: [{ messages: [{ role: 'user', content: 'Send 10.' }], adapter: 'banker' }],
        workflowExecutionTimeout: '1 minute',
      });
      const pending = await eventually<readonly PendingApproval[]>(async () => {
        const calls = await handle.query(pendingApprovalsQuery);
        return calls.length > 0 ? calls : undefined;
      });
      expect(pending.map((call) => call.name)).toEqual(['transfer']);
      await handle.signal(approveToolCallsSignal, { [pending[0]!.toolCallId]: { approved: true } });
      const sent = await handle.result();
      expect(sent.content).toBe('Sent.');
      const events = await handle.query(traceEventsQuery);
      expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(1);
    });
  }, 120_000);
});
