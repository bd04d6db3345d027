import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeepSeekAdapter } from '../../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { createExploreCodebaseTool } from '../../src/flows/explorer/create-explore-codebase-tool.js';
import type { ExplorerReport } from '../../src/flows/explorer/explorer-report-schema.js';
import { ToolOrchestrator } from '../../src/index.js';
import type { TraceEmitter, TraceEvent } from '../../src/index.js';
import { createOtelSink } from '../../src/otel.js';
import { createJsonlSink } from '../../src/trace.js';
import { completion, startFakeOpenAIServer } from '../adapters/fake-openai-server.js';
import type { FakeOpenAIServer } from '../adapters/fake-openai-server.js';
import { fromReadableSpan } from './span-tree.js';
import type { SpanRecord } from './span-tree.js';

const report: ExplorerReport = {
  question: 'Where is the greeting?',
  inferredUserGoal: 'Find the greeting',
  confidence: 0.9,
  repoMap: { entrypoints: ['greet.ts'], keyDirs: [], configs: [], commands: [] },
  findings: [
    {
      summary: 'greet.ts exports the greeting.',
      evidence: [{ file: 'greet.ts', lines: '1', excerpt: "export const greeting = 'hi';" }],
    },
  ],
  missingInfoQuestions: [],
  recommendedNextAction: 'ready_to_plan',
};

let parentServer: FakeOpenAIServer;
let childServer: FakeOpenAIServer;
let directory: string;
beforeEach(async () => {
  parentServer = await startFakeOpenAIServer();
  childServer = await startFakeOpenAIServer();
  directory = mkdtempSync(join(tmpdir(), 'otel-providers-'));
  writeFileSync(join(directory, 'greet.ts'), "export const greeting = 'hi';\n");
});
afterEach(async () => {
  await Promise.all([parentServer.close(), childServer.close()]);
  rmSync(directory, { recursive: true, force: true });
});

function memoryTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}

/**
 * A parent run on the OpenAI adapter whose `explore_codebase` subagent runs on the DeepSeek
 * adapter (its first report is invalid, so a second call of the same run asks for it again), then a run on
 * the OpenAI adapter whose first model call fails. Every event goes to `sink`.
 */
async function runParentAndSubagent(sink: TraceEmitter): Promise<TraceEvent[]> {
  const parent = new OpenAIAdapter({
    model: 'gpt-parent',
    apiKey: 'test-key',
    baseURL: parentServer.baseURL,
    maxRetries: 0,
  });
  const child = new DeepSeekAdapter({
    model: 'deepseek-child',
    apiKey: 'test-key',
    baseURL: childServer.baseURL,
    thinking: 'disabled',
    maxRetries: 0,
  });
  parentServer.enqueue(
    {
      type: 'json',
      body: completion(
        {
          tool_calls: [
            {
              id: 'call_explore',
              type: 'function',
              function: { name: 'explore_codebase', arguments: '{"question":"Where is the greeting?"}' },
            },
          ],
        },
        { finish_reason: 'tool_calls', model: 'gpt-parent-2025' },
      ),
    },
    { type: 'json', body: completion({ content: 'It is in greet.ts.' }, { model: 'gpt-parent-2025' }) },
    {
      type: 'json',
      status: 400,
      body: { error: { message: 'Bad request.', type: 'invalid_request_error' } },
    },
  );
  childServer.enqueue(
    {
      type: 'json',
      body: completion({ content: '{"question": "incomplete"}' }, { model: 'deepseek-served' }),
    },
    { type: 'json', body: completion({ content: JSON.stringify(report) }, { model: 'deepseek-served' }) },
  );
  const events: TraceEvent[] = [];
  const traceEmitter: TraceEmitter = (event) => {
    events.push(event);
    return sink(event);
  };
  const tools = {
    explore_codebase: createExploreCodebaseTool({ adapter: child, root: directory, traceEmitter }),
  };
  const result = await new ToolOrchestrator(parent, tools, { traceEmitter }).run([
    { role: 'user', content: 'Where is the greeting?' },
  ]);
  expect(result.content).toBe('It is in greet.ts.');
  await expect(
    new ToolOrchestrator(parent, {}, { traceEmitter }).run([{ role: 'user', content: 'Again?' }]),
  ).rejects.toThrow('Bad request.');
  expect(childServer.requests).toHaveLength(2);
  return events;
}

/** The run ids of the parent's two runs and of every run with a parent (the subagent). */
function runIds(events: readonly TraceEvent[]) {
  const starts = events.filter((event) => event.type === 'run_start');
  const roots = starts.filter((event) => event.parentRunId === undefined).map((event) => event.runId);
  const children = starts.filter((event) => event.parentRunId !== undefined).map((event) => event.runId);
  return { roots, children };
}

function chatSpans(spans: readonly SpanRecord[], runIdsOf: readonly string[]): SpanRecord[] {
  return spans.filter(
    (span) =>
      span.attributes['gen_ai.operation.name'] === 'chat' &&
      runIdsOf.includes(span.attributes['gen_ai.conversation.id'] as string),
  );
}

describe('one OTel sink shared by runs on different adapters', () => {
  it("names each chat span's provider and requested model from its own adapter, with no sink options", async () => {
    const { exporter, tracer } = memoryTracer();
    const events = await runParentAndSubagent(createOtelSink({ tracer }));
    const spans = exporter.getFinishedSpans().map(fromReadableSpan);
    const { roots, children } = runIds(events);
    expect(roots).toHaveLength(2);
    expect(children).toHaveLength(1);

    const parentChats = chatSpans(spans, roots);
    // Two answered calls and the failed one of the second run.
    expect(parentChats).toHaveLength(3);
    for (const span of parentChats) {
      expect(span.name).toBe('chat gpt-parent');
      expect(span.attributes['gen_ai.provider.name']).toBe('openai');
      expect(span.attributes['gen_ai.request.model']).toBe('gpt-parent');
    }
    expect(parentChats.filter((span) => span.status === 'error')).toHaveLength(1);

    const childChats = chatSpans(spans, children);
    expect(childChats).toHaveLength(2);
    for (const span of childChats) {
      expect(span.name).toBe('chat deepseek-child');
      expect(span.attributes['gen_ai.provider.name']).toBe('deepseek');
      expect(span.attributes['gen_ai.request.model']).toBe('deepseek-child');
      expect(span.attributes['gen_ai.response.model']).toBe('deepseek-served');
    }

    // The run spans say where their calls went too.
    const runSpans = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent');
    const providerOfRun = (runId: string) =>
      runSpans.find((span) => span.attributes['gen_ai.conversation.id'] === runId)?.attributes[
        'gen_ai.provider.name'
      ];
    expect(roots.map(providerOfRun)).toEqual(['openai', 'openai']);
    expect(children.map(providerOfRun)).toEqual(['deepseek']);
  });

  it("prefers the events' provider and model over the sink's options", async () => {
    const { exporter, tracer } = memoryTracer();
    const events = await runParentAndSubagent(
      createOtelSink({ tracer, provider: 'configured', model: 'configured-model' }),
    );
    const spans = exporter.getFinishedSpans().map(fromReadableSpan);
    const { children } = runIds(events);
    const childChats = chatSpans(spans, children);
    expect(childChats.map((span) => span.attributes['gen_ai.provider.name'])).toEqual([
      'deepseek',
      'deepseek',
    ]);
    expect(childChats.map((span) => span.attributes['gen_ai.request.model'])).toEqual([
      'deepseek-child',
      'deepseek-child',
    ]);
  });
});

describe('trace events name the provider and the requested model of each model call', () => {
  it('on llm_call and on the error of a failed call, in memory and in JSONL files', async () => {
    const path = join(directory, 'trace.jsonl');
    const jsonl = createJsonlSink(path);
    const events = await runParentAndSubagent(jsonl);
    await jsonl.close();
    const { roots } = runIds(events);
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TraceEvent);
    for (const list of [events, lines]) {
      const calls = list.filter((event) => event.type === 'llm_call');
      expect(calls).toHaveLength(4);
      for (const call of calls) {
        const expected = roots.includes(call.runId)
          ? { provider: 'openai', model: 'gpt-parent' }
          : { provider: 'deepseek', model: 'deepseek-child' };
        expect({ provider: call.data.provider, model: call.data.model }).toEqual(expected);
      }
      const failure = list.find((event) => event.type === 'error')!;
      expect(failure.data).toMatchObject({
        provider: 'openai',
        model: 'gpt-parent',
        code: 'invalid_request',
      });
    }
  });

  it("keeps them with traceContent: 'metadata'", async () => {
    parentServer.enqueue({ type: 'json', body: completion({ content: 'secret answer' }) });
    const adapter = new OpenAIAdapter({
      model: 'gpt-parent',
      apiKey: 'test-key',
      baseURL: parentServer.baseURL,
    });
    const result = await new ToolOrchestrator(adapter, {}, { traceContent: 'metadata' }).run([
      { role: 'user', content: 'secret question' },
    ]);
    const call = result.traces.find((event) => event.type === 'llm_call')!;
    expect(call.data).toMatchObject({ provider: 'openai', model: 'gpt-parent', messages: [] });
    expect(call.data.response.content).toBeNull();
  });
});
