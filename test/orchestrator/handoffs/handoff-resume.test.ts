import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MemoryCheckpointStore,
  ResumeMismatchError,
  ToolOrchestrator,
  defineTool,
  handoff,
} from '../../../src/index.js';
import type { ChatMessage, ModelResponse, ToolRegistry, TraceEvent } from '../../../src/index.js';
import { ScriptedAdapter } from '../../../src/testing/index.js';
import type { ScriptedResponse } from '../../../src/testing/index.js';
import { expectValidTranscript } from '../../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const handoffsOf = (traces: readonly TraceEvent[]) =>
  traces.flatMap((event) => (event.type === 'handoff' ? [event.data] : []));

/** A triage agent and a billing agent that hand off to each other, as one process would build them. */
function agents(options: {
  readonly triage: readonly ScriptedResponse[];
  readonly billing: readonly ScriptedResponse[];
  readonly billingTools: ToolRegistry;
}) {
  const triageAdapter = new ScriptedAdapter(options.triage);
  const billingAdapter = new ScriptedAdapter(options.billing);
  const triage: ToolOrchestrator = new ToolOrchestrator(
    triageAdapter,
    {},
    { name: 'triage', instructions: 'You triage.', handoffs: () => [billing] },
  );
  const billing = new ToolOrchestrator(billingAdapter, options.billingTools, {
    name: 'billing',
    instructions: 'You do billing.',
    handoffs: [triage],
  });
  return { triage, triageAdapter, billingAdapter };
}

describe('handoffs in durable runs', () => {
  it('a run that crashed after a handoff resumes with the agent it was handed to, from the checkpoint store', async () => {
    const lookups: string[] = [];
    const lookupInvoice = defineTool({
      name: 'lookup_invoice',
      description: 'Finds an invoice',
      parameters: z.object({ id: z.string() }),
      execute: ({ id }) => {
        lookups.push(id);
        return { id, amount: 42 };
      },
    });
    const store = new MemoryCheckpointStore();
    const crashed = agents({
      triage: [ScriptedAdapter.toolCalls([['transfer_to_billing', {}, 'to_billing']])],
      billing: [
        ScriptedAdapter.toolCalls([['lookup_invoice', { id: '42' }, 'lookup']]),
        (): ModelResponse => {
          throw new Error('connection lost');
        },
      ],
      billingTools: { lookup_invoice: lookupInvoice },
    });
    await expect(
      crashed.triage.run([user('Where is invoice 42?')], undefined, {
        runId: 'run-1',
        checkpointStore: store,
      }),
    ).rejects.toThrow('connection lost');
    const saved = await store.load('run-1');
    expect(saved?.strategyState['handoff']).toEqual({ agent: 'billing' });

    // Another process: new agents, each adapter scripted with what is still to come.
    const resumed = agents({
      triage: [],
      billing: [ScriptedAdapter.text('Invoice 42 is 42 USD.')],
      billingTools: { lookup_invoice: lookupInvoice },
    });
    const result = await resumed.triage.resume('run-1', { checkpointStore: store });

    expect(result.content).toBe('Invoice 42 is 42 USD.');
    expect(result.agent).toBe('billing');
    expect(resumed.triageAdapter.calls).toHaveLength(0);
    expect(resumed.billingAdapter.calls[0]!.messages[0]).toEqual({
      role: 'system',
      content: 'You do billing.',
    });
    expect(resumed.billingAdapter.calls[0]!.tools.map((tool) => tool.function.name)).toEqual([
      'lookup_invoice',
      'transfer_to_triage',
    ]);
    expect(lookups).toEqual(['42']);
    expectValidTranscript(result.messages);

    // The run had ended: resuming it again returns its recorded result, with its agent.
    const again = await resumed.triage.resume('run-1', { checkpointStore: store });
    expect(again.agent).toBe('billing');
    expect(again.content).toBe('Invoice 42 is 42 USD.');
  });

  it('a run that crashed on the first call after a transfer resumes the transfer turn from its records and hands off again', async () => {
    const store = new MemoryCheckpointStore();
    const crashed = agents({
      triage: [ScriptedAdapter.toolCalls([['transfer_to_billing', {}, 'to_billing']])],
      billing: [
        (): ModelResponse => {
          throw new Error('connection lost');
        },
      ],
      billingTools: {},
    });
    await expect(
      crashed.triage.run([user('hi')], undefined, { runId: 'run-0', checkpointStore: store }),
    ).rejects.toThrow('connection lost');
    expect((await store.load('run-0'))?.strategyState['handoff']).toEqual({ agent: 'triage' });

    const resumed = agents({ triage: [], billing: [ScriptedAdapter.text('Paid.')], billingTools: {} });
    const result = await resumed.triage.resume('run-0', { checkpointStore: store });

    expect(result.agent).toBe('billing');
    expect(resumed.triageAdapter.calls).toHaveLength(0);
    expect(resumed.billingAdapter.calls[0]!.messages[0]).toEqual({
      role: 'system',
      content: 'You do billing.',
    });
    expect(handoffsOf(result.traces)).toEqual([{ from: 'triage', to: 'billing', toolCallId: 'to_billing' }]);
  });

  it("a resume checks the saved run against the tools of the agent it goes on with, not the starting agent's", async () => {
    const lookupInvoice = defineTool({
      name: 'lookup_invoice',
      description: 'Finds an invoice',
      parameters: z.object({ id: z.string() }),
      execute: () => 'found',
    });
    const store = new MemoryCheckpointStore();
    // The billing agent's tool turn saves a checkpoint with its name; its next call fails.
    const crashed = agents({
      triage: [ScriptedAdapter.toolCalls([['transfer_to_billing', {}]])],
      billing: [
        ScriptedAdapter.toolCalls([['lookup_invoice', { id: '42' }]]),
        (): ModelResponse => {
          throw new Error('connection lost');
        },
      ],
      billingTools: { lookup_invoice: lookupInvoice },
    });
    await expect(
      crashed.triage.run([user('hi')], undefined, { runId: 'run-2', checkpointStore: store }),
    ).rejects.toThrow('connection lost');

    const changed = agents({ triage: [], billing: [ScriptedAdapter.text('ok')], billingTools: {} });
    await expect(changed.triage.resume('run-2', { checkpointStore: store })).rejects.toThrow(
      ResumeMismatchError,
    );
    const forced = await changed.triage.resume('run-2', { checkpointStore: store, force: true });
    expect(forced.agent).toBe('billing');
  });

  it('a call that needs approval in the target agent pauses the run; resume(result.state) goes on with that agent', async () => {
    const refunded: string[] = [];
    const refund = defineTool({
      name: 'refund',
      description: 'Refunds an invoice',
      parameters: z.object({ id: z.string() }),
      needsApproval: true,
      execute: ({ id }) => {
        refunded.push(id);
        return 'refunded';
      },
    });
    const paused = agents({
      triage: [ScriptedAdapter.toolCalls([['transfer_to_billing', {}, 'to_billing']])],
      billing: [ScriptedAdapter.toolCalls([['refund', { id: '42' }, 'refund_call']])],
      billingTools: { refund },
    });
    const first = await paused.triage.run([user('Refund invoice 42')]);
    expect(first.stopReason).toBe('awaiting_approval');
    expect(first.agent).toBe('billing');
    expect(first.pendingApprovals?.map((approval) => approval.name)).toEqual(['refund']);
    expect(first.state?.strategyState['handoff']).toEqual({ agent: 'billing' });
    expect(handoffsOf(first.traces)).toEqual([{ from: 'triage', to: 'billing', toolCallId: 'to_billing' }]);

    const later = agents({
      triage: [ScriptedAdapter.text('Anything else?')],
      billing: [ScriptedAdapter.toolCalls([['transfer_to_triage', {}, 'to_triage']])],
      billingTools: { refund },
    });
    const result = await later.triage.resume(JSON.parse(JSON.stringify(first.state)), {
      approvals: { refund_call: { approved: true } },
    });

    expect(refunded).toEqual(['42']);
    expect(result.content).toBe('Anything else?');
    expect(result.agent).toBe('triage');
    expect(later.billingAdapter.calls).toHaveLength(1);
    expect(later.billingAdapter.calls[0]!.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'refund_call',
      content: 'refunded',
    });
    expect(later.triageAdapter.calls[0]!.messages[0]).toEqual({ role: 'system', content: 'You triage.' });
    expect(handoffsOf(result.traces)).toEqual([{ from: 'billing', to: 'triage', toolCallId: 'to_triage' }]);
    expectValidTranscript(result.messages);
  });

  it('a saved agent that the handoffs no longer reach, or that two agents of the graph are named, fails the resume with a message naming it', async () => {
    const store = new MemoryCheckpointStore();
    const crashed = agents({
      triage: [ScriptedAdapter.toolCalls([['transfer_to_billing', {}]])],
      billing: [
        ScriptedAdapter.toolCalls([['transfer_to_nowhere', {}]]),
        (): ModelResponse => {
          throw new Error('connection lost');
        },
      ],
      billingTools: {},
    });
    await expect(
      crashed.triage.run([user('hi')], undefined, { runId: 'run-3', checkpointStore: store }),
    ).rejects.toThrow('connection lost');
    const alone = new ToolOrchestrator(new ScriptedAdapter([]), {}, { name: 'triage', handoffs: [] });
    await expect(alone.resume('run-3', { checkpointStore: store })).rejects.toThrow(
      /"billing".*no handoff from "triage" reaches an agent of that name/,
    );
    const twin = (): ToolOrchestrator =>
      new ToolOrchestrator(new ScriptedAdapter([]), {}, { name: 'billing' });
    const ambiguous = new ToolOrchestrator(
      new ScriptedAdapter([]),
      {},
      {
        name: 'triage',
        handoffs: [twin(), handoff(twin(), { toolName: 'transfer_to_billing_2' })],
      },
    );
    await expect(ambiguous.resume('run-3', { checkpointStore: store })).rejects.toThrow(
      /"billing".*two different agents reached from "triage" have that name/,
    );
  });
});
