import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { scenarioIds } from '../support/traced-scenario.js';

/** A span as the tests read it, whether it came from the in-memory exporter or over OTLP/HTTP. */
export interface SpanRecord {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: 'internal' | 'client' | 'other';
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly status: 'unset' | 'ok' | 'error';
  readonly statusMessage: string | undefined;
  readonly events: readonly {
    readonly name: string;
    readonly attributes: Readonly<Record<string, unknown>>;
  }[];
}

const statuses = ['unset', 'ok', 'error'] as const;

/** From the SDK's `ReadableSpan` (API span kinds: 0 internal, 2 client). */
export function fromReadableSpan(span: ReadableSpan): SpanRecord {
  const context = span.spanContext();
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: span.kind === 0 ? 'internal' : span.kind === 2 ? 'client' : 'other',
    attributes: { ...span.attributes },
    startNs: BigInt(span.startTime[0]) * 1_000_000_000n + BigInt(span.startTime[1]),
    endNs: BigInt(span.endTime[0]) * 1_000_000_000n + BigInt(span.endTime[1]),
    status: statuses[span.status.code] ?? 'unset',
    statusMessage: span.status.message,
    events: span.events.map((event) => ({ name: event.name, attributes: { ...event.attributes } })),
  };
}

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
  readonly doubleValue?: number;
  readonly boolValue?: boolean;
  readonly arrayValue?: { readonly values?: readonly OtlpValue[] };
}
interface OtlpKeyValue {
  readonly key: string;
  readonly value: OtlpValue;
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes?: readonly OtlpKeyValue[];
  readonly status?: { readonly code?: number; readonly message?: string };
  readonly events?: readonly { readonly name: string; readonly attributes?: readonly OtlpKeyValue[] }[];
}
/** The OTLP/JSON body of `POST /v1/traces`. */
export interface OtlpTraceRequest {
  readonly resourceSpans: readonly {
    readonly scopeSpans: readonly { readonly spans: readonly OtlpSpan[] }[];
  }[];
}

function otlpValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(otlpValue);
  return undefined;
}

function otlpAttributes(list: readonly OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, otlpValue(entry.value)]));
}

/** From OTLP/JSON (span kinds on the wire: 1 internal, 3 client; status 2 error). */
export function fromOtlpRequest(request: OtlpTraceRequest): SpanRecord[] {
  return request.resourceSpans.flatMap((resource) =>
    resource.scopeSpans.flatMap((scope) =>
      scope.spans.map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId:
          span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId,
        name: span.name,
        kind:
          span.kind === 1
            ? ('internal' as const)
            : span.kind === 3
              ? ('client' as const)
              : ('other' as const),
        attributes: otlpAttributes(span.attributes),
        startNs: BigInt(span.startTimeUnixNano),
        endNs: BigInt(span.endTimeUnixNano),
        status: statuses[span.status?.code ?? 0] ?? 'unset',
        statusMessage: span.status?.message,
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          attributes: otlpAttributes(event.attributes),
        })),
      })),
    ),
  );
}

/** Epoch milliseconds in nanoseconds, as the spans should carry them. */
export function nanoseconds(milliseconds: number): bigint {
  return BigInt(Math.round(milliseconds * 1e6));
}

/** Asserts a time within a microsecond (the float milliseconds of the events round). */
export function expectTime(actual: bigint, milliseconds: number): void {
  const difference = actual - nanoseconds(milliseconds);
  expect(difference >= -1000n && difference <= 1000n, `${actual} vs ${nanoseconds(milliseconds)}`).toBe(true);
}

const ofType = <Type extends TraceEvent['type']>(events: readonly TraceEvent[], type: Type) =>
  events.filter((event): event is Extract<TraceEvent, { type: Type }> => event.type === type);

/**
 * Checks the spans of `runTracedScenario` (sink options: provider 'scripted', model 'main-model'):
 * the tree, names, kinds, attributes, times from the events, and the failures.
 */
export function expectScenarioSpans(spans: readonly SpanRecord[], events: readonly TraceEvent[]): void {
  const starts = ofType(events, 'run_start');
  const mainRunId = starts[0]!.runId;
  const childRunId = starts.find((event) => event.parentRunId === mainRunId)!.runId;
  const secondRunId = starts.at(-1)!.runId;
  expect(new Set([mainRunId, childRunId, secondRunId]).size).toBe(3);
  expect(spans.every((span) => span.endNs >= span.startNs)).toBe(true);

  const runSpan = (runId: string) => {
    const found = spans.filter(
      (span) => span.name === 'invoke_agent' && span.attributes['gen_ai.conversation.id'] === runId,
    );
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  const childrenOf = (parent: SpanRecord) => spans.filter((span) => span.parentSpanId === parent.spanId);
  const names = (list: readonly SpanRecord[]) => list.map((span) => span.name).sort();

  // The tree: the subagent's run nests under the call that started it; the second run is a trace of its own.
  const main = runSpan(mainRunId);
  const child = runSpan(childRunId);
  const second = runSpan(secondRunId);
  expect(spans).toHaveLength(1 + 7 + 1 + 5 + 1 + 3);
  const exploreCall = childrenOf(main).find((span) => span.name === 'execute_tool explore_codebase')!;
  expect(child.parentSpanId).toBe(exploreCall.spanId);
  expect(child.traceId).toBe(main.traceId);
  expect(second.traceId).not.toBe(main.traceId);
  expect(names(childrenOf(main))).toEqual([
    'chat main-model',
    'chat main-model',
    'chat main-model',
    'execute_tool broken',
    'execute_tool explore_codebase',
    'execute_tool lookup',
    'execute_tool lookup',
  ]);
  expect(names(childrenOf(exploreCall))).toEqual(['invoke_agent']);
  expect(names(childrenOf(child))).toEqual([
    'chat main-model',
    'chat main-model',
    'chat main-model',
    'execute_tool grep_repo',
    'execute_tool read_file',
  ]);
  expect(names(childrenOf(second))).toEqual(['chat main-model', 'chat main-model', 'execute_tool lookup']);

  // invoke_agent: INTERNAL, the run id as conversation id, totals at the end, times of run_start/run_end.
  const mainStart = starts[0]!;
  const mainEnd = ofType(events, 'run_end').find((event) => event.runId === mainRunId)!;
  expect(main.kind).toBe('internal');
  expect(main.attributes).toMatchObject({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': 'scripted',
    'gen_ai.request.model': 'main-model',
    'gen_ai.conversation.id': mainRunId,
    // The run's own calls, then the explore_codebase subagent's: an agent tool's usage counts in the calling run.
    'gen_ai.usage.input_tokens': 120 + 400 + 2200 + (300 + 900 + 1500),
    'gen_ai.usage.output_tokens': 30 + 40 + 60 + (20 + 25 + 200),
    'gen_ai.usage.cache_read.input_tokens': 100,
    'gen_ai.usage.reasoning.output_tokens': 25,
    'tool_orchestrator.stop_reason': 'final',
    'tool_orchestrator.turns': 3,
  });
  expect(main.parentSpanId).toBeUndefined();
  expect(child.attributes['tool_orchestrator.parent_run_id']).toBe(mainRunId);
  expectTime(main.startNs, mainStart.timestamp);
  expectTime(main.endNs, mainEnd.timestamp);
  expect(main.status).toBe('unset');

  // chat: CLIENT, the GenAI attributes, start = event time - durationMs, end = event time.
  const mainCalls = ofType(events, 'llm_call').filter((event) => event.runId === mainRunId);
  const chats = childrenOf(main)
    .filter((span) => span.name.startsWith('chat'))
    .sort((a, b) => Number(a.startNs - b.startNs));
  expect(chats).toHaveLength(3);
  chats.forEach((span, index) => {
    const event = mainCalls[index]!;
    expect(span.kind).toBe('client');
    expectTime(span.startNs, event.timestamp - event.data.durationMs);
    expectTime(span.endNs, event.timestamp);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'main-model',
      'gen_ai.response.model': 'main-model',
      'gen_ai.conversation.id': mainRunId,
      'gen_ai.usage.input_tokens': event.data.usage!.promptTokens,
      'gen_ai.usage.output_tokens': event.data.usage!.completionTokens,
      'gen_ai.response.finish_reasons': [index < 2 ? 'tool_calls' : 'stop'],
    });
  });
  expect(chats[0]!.attributes['gen_ai.usage.cache_read.input_tokens']).toBe(100);
  expect(chats[2]!.attributes['gen_ai.usage.reasoning.output_tokens']).toBe(25);
  expect(chats[1]!.attributes['gen_ai.usage.reasoning.output_tokens']).toBeUndefined();
  const childChats = childrenOf(child).filter((span) => span.name.startsWith('chat'));
  expect(childChats.map((span) => span.attributes['gen_ai.response.model'])).toEqual([
    'explorer-model',
    'explorer-model',
    'explorer-model',
  ]);

  // execute_tool: INTERNAL, name, call id, type; the two lookups ran in parallel from the batch start.
  const tool = (id: string) => spans.find((span) => span.attributes['gen_ai.tool.call.id'] === id)!;
  const resultOf = (id: string) =>
    ofType(events, 'tool_result').find((event) => event.data.toolCallId === id)!;
  const alpha = tool(scenarioIds.lookupAlpha);
  const script = tool(scenarioIds.lookupScript);
  for (const [span, id] of [
    [alpha, scenarioIds.lookupAlpha],
    [script, scenarioIds.lookupScript],
  ] as const) {
    expect(span.kind).toBe('internal');
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': id,
      'gen_ai.tool.type': 'function',
    });
    expect(Number(span.endNs - span.startNs) / 1e6).toBeCloseTo(resultOf(id).data.durationMs, 3);
    expect(span.status).toBe('unset');
  }
  expect(alpha.startNs).toBe(script.startNs);
  const lastCall = ofType(events, 'tool_call').filter(
    (event) => event.runId === mainRunId && event.turn === 0,
  )[1]!;
  expectTime(alpha.startNs, lastCall.timestamp);
  // The subagent ran inside its call's span, and ended before the next model call.
  const explore = tool(scenarioIds.explore);
  expect(child.startNs >= explore.startNs && child.endNs <= explore.endNs).toBe(true);
  expect(child.endNs <= chats[2]!.startNs).toBe(true);

  // Errors: the failing tool and the failing model call set the status and error.type.
  const broken = tool(scenarioIds.broken);
  expect(broken.status).toBe('error');
  expect(broken.attributes['error.type']).toBe('tool_error');
  expect(broken.statusMessage).toContain('disk on fire');
  expect(broken.events.map((event) => event.name)).toContain('exception');
  const failedChat = childrenOf(second).find((span) => span.status === 'error')!;
  expect(failedChat.name).toBe('chat main-model');
  expect(failedChat.kind).toBe('client');
  expect(failedChat.attributes['error.type']).toBe('rate_limit');
  expect(failedChat.statusMessage).toBe('Slow down.');
  const errorEvent = ofType(events, 'error')[0]!;
  expectTime(failedChat.endNs, errorEvent.timestamp);
  expect(second.status).toBe('error');
  expect(second.attributes['error.type']).toBe('rate_limit');
  expect(second.attributes['tool_orchestrator.stop_reason']).toBe('error');

  // Without captureContent, no message text, arguments or results.
  for (const span of spans) {
    for (const key of [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
    ]) {
      expect(span.attributes[key], `${span.name} ${key}`).toBeUndefined();
    }
  }
}
