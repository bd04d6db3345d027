import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createOtelSink } from '../../src/otel.js';
import { ToolOrchestrator } from '../../src/orchestrator/tool-orchestrator.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import { ToolRunner } from '../../src/tools/tool-runner.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { runTracedScenario } from '../support/traced-scenario.js';
import { expectScenarioSpans, fromReadableSpan } from './span-tree.js';

function memoryTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, tracer: provider.getTracer('test') };
}

afterEach(() => {
  context.disable();
});

describe('createOtelSink', () => {
  it('records a multi-turn run with parallel tools, a failing tool, a subagent and a failing model call', async () => {
    const { exporter, tracer } = memoryTracer();
    const events = await runTracedScenario(
      createOtelSink({ tracer, provider: 'scripted', model: 'main-model' }),
    );
    expectScenarioSpans(exporter.getFinishedSpans().map(fromReadableSpan), events);
  });

  it('takes every time from the events: replayed a while later, the spans are the same', async () => {
    const live = memoryTracer();
    const events = await runTracedScenario(
      createOtelSink({ tracer: live.tracer, provider: 'scripted', model: 'main-model' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const replayed = memoryTracer();
    const sink = createOtelSink({ tracer: replayed.tracer, provider: 'scripted', model: 'main-model' });
    for (const event of events) sink.write(event);
    const shape = (spans: ReturnType<typeof fromReadableSpan>[]) =>
      spans.map((span) => [span.name, span.startNs, span.endNs, span.status, span.attributes['error.type']]);
    const liveSpans = live.exporter.getFinishedSpans().map(fromReadableSpan);
    const replayedSpans = replayed.exporter.getFinishedSpans().map(fromReadableSpan);
    expect(shape(replayedSpans)).toEqual(shape(liveSpans));
    expectScenarioSpans(replayedSpans, events);
  });

  it('puts messages, arguments and results on spans only with captureContent', async () => {
    const { exporter, tracer } = memoryTracer();
    await runTracedScenario(createOtelSink({ tracer, captureContent: true }));
    const spans = exporter.getFinishedSpans().map(fromReadableSpan);
    const firstChat = spans.find((span) => span.name === 'chat main-model')!;
    expect(JSON.parse(firstChat.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You are a careful engineer.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'How are requests sent in axios?' }] },
    ]);
    expect(JSON.parse(firstChat.attributes['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        finish_reason: 'tool_calls',
        parts: [
          { type: 'tool_call', id: 'call_lookup_alpha', name: 'lookup', arguments: { query: 'alpha' } },
          {
            type: 'tool_call',
            id: 'call_lookup_script',
            name: 'lookup',
            arguments: { query: '</script><script>window.__pwned=1</script>' },
          },
        ],
      },
    ]);
    const alpha = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'call_lookup_alpha')!;
    expect(alpha.attributes['gen_ai.tool.call.arguments']).toBe('{"query":"alpha"}');
    expect(alpha.attributes['gen_ai.tool.call.result']).toContain('Found alpha');
    // Without the sink's options, the events' provider is used; the scripted adapter names no
    // model, so the requested model is left out rather than guessed.
    expect(firstChat.attributes['gen_ai.provider.name']).toBe('scripted');
    expect(firstChat.attributes['gen_ai.request.model']).toBeUndefined();
    // Tool results reach the next call's input as tool_call_response parts.
    const secondChat = spans.filter((span) => span.name === 'chat main-model')[1]!;
    const input = JSON.parse(secondChat.attributes['gen_ai.input.messages'] as string) as {
      role: string;
      parts: { type: string; id?: string; response?: unknown }[];
    }[];
    expect(input.at(-1)).toEqual({
      role: 'tool',
      parts: [
        { type: 'tool_call_response', id: 'call_lookup_script', response: expect.stringContaining('Found') },
      ],
    });
  });

  it("nests a run under the caller's active span, and names the agent", async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const { exporter, tracer } = memoryTracer();
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('hi')]),
      {},
      {
        traceEmitter: createOtelSink({ tracer, agentName: 'greeter' }),
      },
    );
    await tracer.startActiveSpan('handle request', async (span) => {
      await orchestrator.run([{ role: 'user', content: 'hello' }]);
      span.end();
    });
    const spans = exporter.getFinishedSpans().map(fromReadableSpan);
    const request = spans.find((span) => span.name === 'handle request')!;
    const agent = spans.find((span) => span.name === 'invoke_agent greeter')!;
    expect(agent.parentSpanId).toBe(request.spanId);
    expect(agent.attributes['gen_ai.agent.name']).toBe('greeter');
    expect(spans.find((span) => span.name === 'chat')!.parentSpanId).toBe(agent.spanId);
  });

  it("nests an agent tool's run under the execute_tool span of the call that started it", async () => {
    const { exporter, tracer } = memoryTracer();
    const researcher = new ToolOrchestrator(new ScriptedAdapter([ScriptedAdapter.text('the moon')]), {});
    const lead = new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['research', { input: 'tides?' }, 'call_research']]),
        ScriptedAdapter.text('done'),
      ]),
      { research: researcher.asTool({ name: 'research', description: 'Researches' }) },
      { traceEmitter: createOtelSink({ tracer }) },
    );
    await lead.run([{ role: 'user', content: 'why tides?' }]);
    const spans = exporter.getFinishedSpans().map(fromReadableSpan);
    const agents = spans.filter((span) => span.name === 'invoke_agent');
    expect(agents).toHaveLength(2);
    const tool = spans.find((span) => span.name === 'execute_tool research')!;
    const outer = agents.find((span) => span.parentSpanId !== tool.spanId)!;
    const inner = agents.find((span) => span.parentSpanId === tool.spanId);
    expect(tool.parentSpanId).toBe(outer.spanId);
    expect(inner, 'the nested run is a child of the execute_tool span').toBeDefined();
    expect(inner!.attributes['tool_orchestrator.parent_tool_call_id']).toBe('call_research');
    expect(inner!.startNs).toBeGreaterThanOrEqual(tool.startNs);
    expect(inner!.endNs).toBeLessThanOrEqual(tool.endNs);
    expect(spans.filter((span) => span.name.startsWith('execute_tool'))).toHaveLength(1);
  });

  it('records warnings and event types it does not know as span events', () => {
    const { exporter, tracer } = memoryTracer();
    const sink = createOtelSink({ tracer });
    const base = { runId: 'run-1', turn: 0 };
    const events = [
      {
        ...base,
        type: 'run_start',
        seq: 0,
        timestamp: 1000,
        data: { messageCount: 1, toolNames: [], maxTurns: 1, requestId: 'r' },
      },
      {
        ...base,
        type: 'warning',
        seq: 1,
        timestamp: 1001,
        data: { code: 'max_turns', message: 'out of turns' },
      },
      {
        ...base,
        type: 'context_compacted',
        seq: 2,
        timestamp: 1002,
        data: { removedMessages: 12, summary: 'short', nested: { a: 1 } },
      },
      {
        ...base,
        type: 'run_end',
        seq: 3,
        timestamp: 1003,
        data: {
          stopReason: 'max_turns',
          turns: 1,
          durationMs: 3,
          usage: {
            promptTokens: 0,
            completionTokens: 0,
            totalTokens: 0,
            reasoningTokens: 0,
            cachedPromptTokens: 0,
          },
        },
      },
    ] as unknown as TraceEvent[];
    for (const event of events) sink(event);
    const [run] = exporter.getFinishedSpans().map(fromReadableSpan);
    expect(run!.events).toEqual([
      {
        name: 'tool_orchestrator.warning',
        attributes: {
          'tool_orchestrator.warning.code': 'max_turns',
          'tool_orchestrator.warning.message': 'out of turns',
        },
      },
      {
        name: 'tool_orchestrator.context_compacted',
        attributes: { 'tool_orchestrator.removedMessages': 12, 'tool_orchestrator.summary': 'short' },
      },
    ]);
    expect(run!.startNs).toBe(1_000_000_000n);
    expect(run!.endNs).toBe(1_003_000_000n);
  });

  it("records a handoff as an event of the run span, and the target agent's model call as a chat span of the run", async () => {
    const { exporter, tracer } = memoryTracer();
    const billing = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('Paid.')], { provider: 'billing-provider' }),
      {},
      { name: 'billing' },
    );
    const triage = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}, 'to_billing']])]),
      {},
      { name: 'triage', handoffs: [billing], traceEmitter: createOtelSink({ tracer }) },
    );
    await triage.run([{ role: 'user', content: 'Did I pay?' }]);
    const spans = exporter.getFinishedSpans().map(fromReadableSpan);
    const run = spans.find((span) => span.parentSpanId === undefined)!;
    expect(run.events).toContainEqual({
      name: 'tool_orchestrator.handoff',
      attributes: {
        'tool_orchestrator.from': 'triage',
        'tool_orchestrator.to': 'billing',
        'tool_orchestrator.toolCallId': 'to_billing',
      },
    });
    expect(
      spans.filter((span) => span.attributes['gen_ai.provider.name'] === 'billing-provider').length,
    ).toBeGreaterThan(0);
  });

  it('fails the run, not a model call, when a custom tool runner throws', async () => {
    const { exporter, tracer } = memoryTracer();
    const runner = new (class extends ToolRunner {
      override executeToolCalls(): never {
        throw new Error('runner broke');
      }
    })({});
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['anything', {}, 'call_1']]),
        ScriptedAdapter.text('never'),
      ]),
      {},
      { toolRunner: runner, traceEmitter: createOtelSink({ tracer }) },
    );
    await expect(orchestrator.run([{ role: 'user', content: 'go' }])).rejects.toThrow('runner broke');
    const spans = exporter.getFinishedSpans().map(fromReadableSpan);
    expect(spans.map((span) => [span.name, span.status]).sort()).toEqual([
      ['chat', 'unset'],
      ['execute_tool anything', 'error'],
      ['invoke_agent', 'error'],
    ]);
    expect(spans.find((span) => span.name === 'invoke_agent')!.statusMessage).toBe('runner broke');
  });

  it('uses the global tracer provider when no tracer is given', async () => {
    const { exporter, provider } = memoryTracer();
    trace.setGlobalTracerProvider(provider);
    try {
      const orchestrator = new ToolOrchestrator(
        new ScriptedAdapter([ScriptedAdapter.text('hi')]),
        {},
        {
          traceEmitter: createOtelSink(),
        },
      );
      await orchestrator.run([{ role: 'user', content: 'hello' }]);
      expect(
        exporter
          .getFinishedSpans()
          .map((span) => span.name)
          .sort(),
      ).toEqual(['chat', 'invoke_agent']);
    } finally {
      trace.disable();
    }
  });
});
