import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidArgumentError, ToolOrchestrator, defineTool, handoff } from '../../../src/index.js';
import type { ChatMessage, TraceEvent, TraceEventOf } from '../../../src/index.js';
import { ScriptedAdapter } from '../../../src/testing/index.js';
import { expectValidTranscript } from '../../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const system = (content: string): ChatMessage => ({ role: 'system', content });
const handoffsOf = (traces: readonly TraceEvent[]): TraceEventOf<'handoff'>['data'][] =>
  traces.flatMap((event) => (event.type === 'handoff' ? [event.data] : []));
const toolNames = (call: { readonly tools: readonly { function: { name: string } }[] }): string[] =>
  call.tools.map((tool) => tool.function.name);

const faq = defineTool({
  name: 'faq',
  description: 'Answers common questions',
  parameters: z.object({ question: z.string() }),
  execute: ({ question }) => `faq: ${question}`,
});
const lookupInvoice = defineTool({
  name: 'lookup_invoice',
  description: 'Finds an invoice',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => ({ id, amount: 42 }),
});

describe('handoffs', () => {
  it('a handoff and back: each agent answers with its own adapter, instructions and tools', async () => {
    const triageAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['transfer_to_billing', {}, 'to_billing']]),
      ScriptedAdapter.text('Anything else?'),
    ]);
    const billingAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['lookup_invoice', { id: '42' }, 'lookup']]),
      ScriptedAdapter.toolCalls([['transfer_to_triage', {}, 'to_triage']]),
    ]);
    const triage: ToolOrchestrator = new ToolOrchestrator(
      triageAdapter,
      { faq },
      { name: 'triage', instructions: 'You triage.', handoffs: () => [billing] },
    );
    const billing = new ToolOrchestrator(
      billingAdapter,
      { lookup_invoice: lookupInvoice },
      {
        name: 'billing',
        instructions: 'You do billing.',
        description: 'Invoices and payments',
        handoffs: [triage],
      },
    );

    const result = await triage.run([user('Where is invoice 42?')]);

    expect(result.content).toBe('Anything else?');
    expect(result.agent).toBe('triage');
    expect(result.turns).toBe(4);
    expect(triageAdapter.calls).toHaveLength(2);
    expect(billingAdapter.calls).toHaveLength(2);
    // The tools each agent saw: its own, then one transfer tool per handoff.
    expect(toolNames(triageAdapter.calls[0]!)).toEqual(['faq', 'transfer_to_billing']);
    expect(toolNames(billingAdapter.calls[0]!)).toEqual(['lookup_invoice', 'transfer_to_triage']);
    expect(triageAdapter.calls[0]!.tools[1]!.function.description).toBe('Invoices and payments');
    expect(billingAdapter.calls[0]!.tools[1]!.function.description).toBe(
      'Hands the conversation to the triage agent.',
    );
    // The system message each saw: the agent's own instructions, the other's replaced.
    expect(triageAdapter.calls[0]!.messages).toEqual([system('You triage.'), user('Where is invoice 42?')]);
    const billingFirst = billingAdapter.calls[0]!.messages;
    expect(billingFirst[0]).toEqual(system('You do billing.'));
    expect(billingFirst.filter((message) => message.role === 'system')).toHaveLength(1);
    expect(billingFirst.slice(1)).toEqual([
      user('Where is invoice 42?'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [ScriptedAdapter.toolCall('transfer_to_billing', {}, 'to_billing')],
      },
      { role: 'tool', tool_call_id: 'to_billing', content: '{"assistant":"billing"}' },
    ]);
    const triageSecond = triageAdapter.calls[1]!.messages;
    expect(triageSecond[0]).toEqual(system('You triage.'));
    expect(triageSecond.filter((message) => message.role === 'system')).toHaveLength(1);
    expect(triageSecond).toContainEqual({
      role: 'tool',
      tool_call_id: 'lookup',
      content: '{"id":"42","amount":42}',
    });
    expect(handoffsOf(result.traces)).toEqual([
      { from: 'triage', to: 'billing', toolCallId: 'to_billing' },
      { from: 'billing', to: 'triage', toolCallId: 'to_triage' },
    ]);
    // Each handoff event comes after its transfer's result and before the next agent's model call.
    const types = result.traces.map((event) => event.type);
    const firstHandoff = types.indexOf('handoff');
    expect(types[firstHandoff - 1]).toBe('tool_result');
    expect(types[firstHandoff + 1]).toBe('llm_call');
    expect(result.traces[firstHandoff + 1]).toMatchObject({ data: { provider: 'scripted' } });
    expectValidTranscript(result.messages);
  });

  it("result.agent names the agent that answered, and is the orchestrator's own name without handoffs", async () => {
    const named = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('hi')]),
      {},
      { name: 'solo' },
    );
    expect((await named.run([user('hello')])).agent).toBe('solo');
    expect(named.name).toBe('solo');
    const unnamed = new ToolOrchestrator(new ScriptedAdapter([ScriptedAdapter.text('hi')]), {});
    expect((await unnamed.run([user('hello')])).agent).toBeUndefined();

    const billing = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('Paid.')]),
      {},
      {
        name: 'billing',
      },
    );
    const triage = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}]])]),
      {},
      { name: 'triage', handoffs: [billing] },
    );
    const result = await triage.run([user('Did I pay?')]);
    expect(result.content).toBe('Paid.');
    expect(result.agent).toBe('billing');
  });

  it("inputFilter chooses the history the agent receives, and the run goes on with it; without instructions the source's system message is dropped", async () => {
    const billingAdapter = new ScriptedAdapter([ScriptedAdapter.text('Paid.')]);
    const billing = new ToolOrchestrator(billingAdapter, {}, { name: 'billing' });
    const seen: (readonly ChatMessage[])[] = [];
    const triage = new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['faq', { question: 'billing?' }, 'faq_call']]),
        ScriptedAdapter.toolCalls([['billing_desk', {}, 'to_billing']]),
      ]),
      { faq },
      {
        name: 'triage',
        instructions: 'You triage.',
        handoffs: [
          handoff(billing, {
            toolName: 'billing_desk',
            inputFilter: (history) => {
              seen.push(history);
              return history.filter((message) => message.role === 'user');
            },
          }),
        ],
      },
    );

    const result = await triage.run([user('Did I pay?')]);

    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toEqual(user('Did I pay?'));
    expect(seen[0]!.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'to_billing',
      content: '{"assistant":"billing"}',
    });
    expect(billingAdapter.calls[0]!.messages).toEqual([user('Did I pay?')]);
    expect(result.messages).toEqual([user('Did I pay?'), { role: 'assistant', content: 'Paid.' }]);
    expect(result.agent).toBe('billing');
  });

  it('an async inputFilter is awaited; one that returns no messages fails the run with an InvalidArgumentError', async () => {
    const make = (inputFilter: () => unknown) => {
      const billing = new ToolOrchestrator(
        new ScriptedAdapter([ScriptedAdapter.text('Paid.')]),
        {},
        {
          name: 'billing',
        },
      );
      return new ToolOrchestrator(
        new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}]])]),
        {},
        {
          name: 'triage',
          handoffs: [handoff(billing, { inputFilter: inputFilter as () => ChatMessage[] })],
        },
      );
    };
    const kept = await make(async () => [user('only this')]).run([user('hello')]);
    expect(kept.messages[0]).toEqual(user('only this'));
    await expect(make(() => 'nothing').run([user('hello')])).rejects.toThrow(
      /inputFilter of transfer_to_billing.*must return an array of chat messages/,
    );
  });

  it('two transfer calls in one turn: the first wins, the other is answered with an error, other calls run', async () => {
    const billingAdapter = new ScriptedAdapter([ScriptedAdapter.text('Paid.')]);
    const refundsAdapter = new ScriptedAdapter([]);
    const billing = new ToolOrchestrator(billingAdapter, {}, { name: 'billing' });
    const refunds = new ToolOrchestrator(refundsAdapter, {}, { name: 'refunds' });
    const triage = new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([
          ['transfer_to_billing', {}, 'to_billing'],
          ['faq', { question: 'refunds?' }, 'faq_call'],
          ['transfer_to_refunds', {}, 'to_refunds'],
        ]),
      ]),
      { faq },
      { name: 'triage', handoffs: [billing, refunds] },
    );

    const result = await triage.run([user('Pay or refund?')]);

    expect(result.agent).toBe('billing');
    expect(refundsAdapter.calls).toHaveLength(0);
    expect(billingAdapter.calls).toHaveLength(1);
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual([
      'to_billing',
      'faq_call',
      'to_refunds',
    ]);
    expect(toolMessages[1]!.content).toBe('faq: refunds?');
    expect(String(toolMessages[2]!.content)).toMatch(/Not transferred.*transfer_to_billing/);
    expect(handoffsOf(result.traces)).toEqual([{ from: 'triage', to: 'billing', toolCallId: 'to_billing' }]);
    expectValidTranscript(result.messages);
  });

  it("after a handoff, the target's typed output is the run's output", async () => {
    const billingAdapter = new ScriptedAdapter([ScriptedAdapter.text('{"amount":42}')], {
      supportsResponseFormat: true,
    });
    const billing = new ToolOrchestrator(
      billingAdapter,
      {},
      {
        name: 'billing',
        output: z.object({ amount: z.number() }),
      },
    );
    const triageAdapter = new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}]])], {
      supportsResponseFormat: true,
    });
    const triage = new ToolOrchestrator(triageAdapter, {}, { name: 'triage', handoffs: [billing] });

    const result = await triage.run([user('How much?')]);

    expect(result.output).toEqual({ amount: 42 });
    expect(triageAdapter.calls[0]!.options.responseFormat).toBeUndefined();
    expect(billingAdapter.calls[0]!.options.responseFormat).toBeDefined();
  });

  it('stream() shows the handoff event and streams the target agent', async () => {
    const billing = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('Paid in full.')]),
      {},
      {
        name: 'billing',
      },
    );
    const triage = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}, 'to_billing']])]),
      {},
      { name: 'triage', handoffs: [billing] },
    );
    const listened: TraceEvent[] = [];
    triage.on('handoff', (event) => listened.push(event));

    const stream = triage.stream([user('Did I pay?')]);
    const events: TraceEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;

    expect(handoffsOf(events)).toEqual([{ from: 'triage', to: 'billing', toolCallId: 'to_billing' }]);
    expect(listened).toHaveLength(1);
    expect(events.filter((event) => event.type === 'content_delta').length).toBeGreaterThan(0);
    expect(result.content).toBe('Paid in full.');
    expect(result.agent).toBe('billing');
  });

  it("a run's named toolChoice holds only for agents that have the tool; the target's own standing toolChoice applies afresh", async () => {
    const billingAdapter = new ScriptedAdapter([ScriptedAdapter.text('Paid.')]);
    const billing = new ToolOrchestrator(billingAdapter, {}, { name: 'billing', toolChoice: 'none' });
    const triage = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}]])]),
      { faq },
      { name: 'triage', handoffs: [billing] },
    );
    await triage.run([user('hi')], undefined, {
      toolChoice: { type: 'function', function: { name: 'faq' } },
    });
    expect(billingAdapter.calls[0]!.options.toolChoice).toBe('none');

    // A forced choice the source's calls reset to 'auto' is the target's own again.
    const forcedAdapter = new ScriptedAdapter([ScriptedAdapter.text('Paid.')]);
    const forced = new ToolOrchestrator(forcedAdapter, { faq }, { name: 'billing', toolChoice: 'required' });
    const source = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}]])]),
      {},
      { name: 'triage', toolChoice: 'required', handoffs: [forced] },
    );
    await source.run([user('hi')]);
    expect(forcedAdapter.calls[0]!.options.toolChoice).toBe('required');
  });

  it("what stays the run's: maxTurns, context and usage hold across agents; the target's own do not apply", async () => {
    const contexts: unknown[] = [];
    const whoAmI = defineTool({
      name: 'who_am_i',
      description: 'The customer',
      parameters: z.object({}),
      execute: (_input, context) => {
        contexts.push(context.customer);
        return 'c_1';
      },
    });
    const usage = {
      promptTokens: 9,
      completionTokens: 1,
      totalTokens: 10,
      reasoningTokens: 0,
      cachedPromptTokens: 0,
    };
    const billing = new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['who_am_i', {}]], { usage }),
        ScriptedAdapter.text('Paid.', { usage }),
      ]),
      { who_am_i: whoAmI },
      { name: 'billing', maxTurns: 1, context: { customer: 'billing default' } },
    );
    const triage = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}]], { usage })]),
      {},
      { name: 'triage', maxTurns: 3, handoffs: [billing] },
    );

    const result = await triage.run([user('Did I pay?')], undefined, { context: { customer: 'ada' } });

    expect(result.stopReason).toBe('final');
    expect(result.turns).toBe(3);
    expect(result.usage.totalTokens).toBe(30);
    expect(contexts).toEqual(['ada']);
  });

  it('rejects a bad name, handoffs without a name, a target without a name, and a tool name that is taken', async () => {
    const adapter = new ScriptedAdapter([]);
    expect(() => new ToolOrchestrator(adapter, {}, { name: 'billing desk' })).toThrow(InvalidArgumentError);
    expect(() => new ToolOrchestrator(adapter, {}, { name: 'billing desk' })).toThrow(/Invalid name/);
    expect(() => new ToolOrchestrator(adapter, {}, { handoffs: [] })).toThrow(
      /required for an orchestrator with handoffs/,
    );

    const unnamed = new ToolOrchestrator(adapter, {});
    const triage = new ToolOrchestrator(adapter, {}, { name: 'triage', handoffs: [unnamed] });
    await expect(triage.run([user('hi')])).rejects.toThrow(/handoffs\[0\].*without a name/);

    const faqAgent = new ToolOrchestrator(adapter, {}, { name: 'faq' });
    const clash = new ToolOrchestrator(
      adapter,
      { faq },
      {
        name: 'triage',
        handoffs: [handoff(faqAgent, { toolName: 'faq' })],
      },
    );
    await expect(clash.run([user('hi')])).rejects.toThrow(
      /handoffs\[0\]\.toolName.*already the name of a tool/,
    );

    for (const entry of [
      null,
      { name: 'billing' },
      handoff({ name: 'billing' } as unknown as ToolOrchestrator),
    ]) {
      const notAnAgent = new ToolOrchestrator(
        adapter,
        {},
        {
          name: 'triage',
          handoffs: [entry as unknown as ToolOrchestrator],
        },
      );
      await expect(notAnAgent.run([user('hi')])).rejects.toThrow(
        /handoffs\[0\].*must be a ToolOrchestrator or handoff/,
      );
    }
  });
});
