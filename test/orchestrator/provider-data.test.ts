import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  FileCheckpointStore,
  InvalidRunStateError,
  MemoryCheckpointStore,
  ToolOrchestrator,
  UnexpectedResponseError,
  defineTool,
  validateRunState,
} from '../../src/index.js';
import type { AssistantMessage, ChatMessage, ModelResponse, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { outputMessagesJson } from '../../src/otel/gen-ai-messages.js';
import { buildTraceModel } from '../../src/trace/viewer/build-trace-model.js';
import type { ModelItem } from '../../src/trace/viewer/trace-model.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: found`,
});

const remove = defineTool({
  name: 'remove',
  description: 'Delete a file',
  parameters: z.object({ path: z.string() }),
  needsApproval: true,
  execute: ({ path }) => `removed ${path}`,
});

/** A tool turn as a reasoning provider answers it: reasoning parts, provider data on the message and the call. */
function reasoningTurn(
  turn: number,
  toolName = 'lookup',
  args: object = { word: `w${turn}` },
): ModelResponse {
  return {
    content: null,
    reasoning: [
      {
        type: 'reasoning',
        text: `thinking ${turn}`,
        providerData: { 'fake.api': { id: `rs_${turn}`, encrypted_content: `enc-${turn}==` } },
      },
      { type: 'reasoning', redacted: true, providerData: { 'fake.api': { data: `redacted-${turn}` } } },
    ],
    providerData: { 'fake.api': { message_id: `msg_${turn}`, extra: { nested: [turn, null, true] } } },
    tool_calls: [
      {
        id: `call_${turn}`,
        type: 'function',
        function: { name: toolName, arguments: JSON.stringify(args) },
        providerData: { 'fake.api': { thought_signature: `sig-${turn}` } },
      },
    ],
  };
}

function assistantOf(response: ModelResponse): AssistantMessage {
  return {
    role: 'assistant',
    content: response.content,
    ...(response.tool_calls === undefined ? {} : { tool_calls: response.tool_calls }),
    ...(response.reasoning === undefined ? {} : { reasoning: response.reasoning }),
    ...(response.providerData === undefined ? {} : { providerData: response.providerData }),
  };
}

const user: ChatMessage = { role: 'user', content: 'Look three words up.' };

describe('reasoning parts and provider data in the transcript', () => {
  it('are sent back unchanged on every later turn of a tool loop', async () => {
    const turns = [reasoningTurn(1), reasoningTurn(2), reasoningTurn(3)];
    const adapter = new ScriptedAdapter([...turns, ScriptedAdapter.text('Done.')], {
      providerDataKey: 'fake.api',
    });
    const result = await new ToolOrchestrator(adapter, { lookup }).run([user]);
    expect(result.stopReason).toBe('final');
    const assistants = result.messages.filter((message) => message.role === 'assistant');
    expect(assistants.slice(0, 3)).toEqual(turns.map(assistantOf));
    // The last call was sent all three turns, each exactly as the provider returned it.
    const lastSent = adapter.calls.at(-1)!.messages.filter((message) => message.role === 'assistant');
    expect(lastSent).toEqual(turns.map(assistantOf));
    expect(result.traces.some((event) => event.type === 'warning')).toBe(false);
  });

  it('survive a pause for approval and a resume from the file store in a new orchestrator', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'provider-data-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const first = reasoningTurn(1, 'remove', { path: 'a.txt' });
    const store = new FileCheckpointStore({ dir });
    cleanups.push(() => store.close());
    const paused = await new ToolOrchestrator(
      new ScriptedAdapter([first], { providerDataKey: 'fake.api' }),
      { remove },
      { checkpointStore: store },
    ).run([user]);
    expect(paused.stopReason).toBe('awaiting_approval');
    await store.close();

    const reopened = new FileCheckpointStore({ dir });
    cleanups.push(() => reopened.close());
    const resumedAdapter = new ScriptedAdapter([ScriptedAdapter.text('Removed.')], {
      providerDataKey: 'fake.api',
    });
    const resumed = await new ToolOrchestrator(
      resumedAdapter,
      { remove },
      { checkpointStore: reopened },
    ).resume(paused.runId, { approvals: { call_1: { approved: true } } });
    expect(resumed.stopReason).toBe('final');
    const sent = resumedAdapter.calls[0]!.messages;
    expect(sent[1]).toEqual(assistantOf(first));
    expect(sent[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: 'removed a.txt' });
  });

  it('are kept by the memory store and pass the saved-state check', async () => {
    const store = new MemoryCheckpointStore();
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([reasoningTurn(1), ScriptedAdapter.text('Done.')]),
      { lookup },
      { checkpointStore: store },
    ).run([user]);
    const saved = await store.load(result.runId);
    expect(saved).toBeDefined();
    expect(validateRunState(JSON.parse(JSON.stringify(saved)))).toBeDefined();
    expect(saved!.messages[1]).toEqual(assistantOf(reasoningTurn(1)));
  });

  it('reach prepareTurn as they are', async () => {
    const seen: ChatMessage[][] = [];
    await new ToolOrchestrator(new ScriptedAdapter([reasoningTurn(1), ScriptedAdapter.text('Done.')]), {
      lookup,
    }).run([user], undefined, {
      prepareTurn: ({ messages }) => {
        seen.push([...messages]);
        return undefined;
      },
    });
    expect(seen[1]![1]).toEqual(assistantOf(reasoningTurn(1)));
  });
});

describe('an adapter that returns badly shaped reasoning or provider data', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['reasoning that is not an array', { content: 'x', reasoning: 'thought' }, 'reasoning'],
    ['a reasoning part without its type', { content: 'x', reasoning: [{ text: 'a' }] }, 'reasoning[0]'],
    [
      'reasoning text that is not a string',
      { content: 'x', reasoning: [{ type: 'reasoning', text: 1 }] },
      'reasoning[0].text',
    ],
    ['provider data that is a string', { content: 'x', providerData: 'opaque' }, 'providerData'],
    [
      'provider data whose entry is not an object',
      { content: 'x', providerData: { 'fake.api': 'x' } },
      'providerData["fake.api"]',
    ],
    [
      'a call whose provider data is an array',
      {
        content: null,
        tool_calls: [
          { id: 'c', type: 'function', function: { name: 'lookup', arguments: '{}' }, providerData: [] },
        ],
      },
      'tool_calls[0].providerData',
    ],
  ];
  it.each(cases)(
    'fails the run with UnexpectedResponseError naming the field: %s',
    async (_name, response, path) => {
      const adapter = { provider: 'fake', call: () => Promise.resolve(response as unknown as ModelResponse) };
      const error = await new ToolOrchestrator(adapter, { lookup })
        .run([user])
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect((error as Error).message).toContain(`whose ${path} is`);
    },
  );
});

describe('a saved run with badly shaped provider data', () => {
  it('is refused by validateRunState, naming the field', async () => {
    const store = new MemoryCheckpointStore();
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([reasoningTurn(1), ScriptedAdapter.text('Done.')]),
      {
        lookup,
      },
      { checkpointStore: store },
    ).run([user]);
    const saved = JSON.parse(JSON.stringify(await store.load(result.runId))) as {
      messages: Record<string, unknown>[];
    };
    (saved.messages[1]!['tool_calls'] as Record<string, unknown>[])[0]!['providerData'] = { 'fake.api': 42 };
    expect(() => validateRunState(saved)).toThrow(InvalidRunStateError);
    expect(() => validateRunState(saved)).toThrow(
      /messages\[1\]\.tool_calls\[0\]\.providerData\["fake\.api"\]/,
    );
    saved.messages[1]!['reasoning'] = [{ type: 'thinking' }];
    expect(() => validateRunState(saved)).toThrow(/messages\[1\]\.reasoning\[0\]/);
  });
});

describe('provider data of another API', () => {
  const transcript: ChatMessage[] = [
    user,
    assistantOf(reasoningTurn(1)),
    { role: 'tool', tool_call_id: 'call_1', content: 'w1: found' },
  ];

  function warnings(traces: readonly TraceEvent[]) {
    return traces.flatMap((event) => (event.type === 'warning' ? [event.data] : []));
  }

  it('is named in one warning per key, and stays in the transcript', async () => {
    const deepseekTurn: AssistantMessage = {
      role: 'assistant',
      content: 'ok',
      providerData: { 'deepseek.chat': { extra: 1 } },
    };
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('Done.')], {
        provider: 'other',
        providerDataKey: 'other.api',
      }),
      { lookup },
    ).run([...transcript, deepseekTurn, { role: 'user', content: 'and now?' }]);
    const dropped = warnings(result.traces).filter((warning) => warning.code === 'provider_data_dropped');
    expect(dropped.map((warning) => warning.message)).toEqual([
      expect.stringContaining('"fake.api" needs back (4 reasoning parts or fields)'),
      expect.stringContaining('"deepseek.chat" needs back (1 reasoning part or field)'),
    ]);
    expect(dropped[0]!.message).toContain('reads only "other.api"');
    expect(result.messages[1]).toEqual(transcript[1]);
  });

  it('is not warned about when the adapter reads that key', async () => {
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('Done.')], { providerDataKey: 'fake.api' }),
      { lookup },
    ).run(transcript);
    expect(warnings(result.traces)).toEqual([]);
  });
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the reasoning_content event', () => {
  it('shows the text of reasoning parts, and leaves redacted ones out', async () => {
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([reasoningTurn(1), ScriptedAdapter.text('Done.')]),
      { lookup },
    ).run([user]);
    const shown = result.traces.flatMap((event) =>
      event.type === 'reasoning_content' ? [event.data.content] : [],
    );
    expect(shown).toEqual(['thinking 1']);
  });

  it("keeps no reasoning or provider data with traceContent: 'metadata'", async () => {
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([reasoningTurn(1), ScriptedAdapter.text('Done.')]),
      { lookup },
      { traceContent: 'metadata' },
    ).run([user]);
    const serialized = JSON.stringify(result.traces);
    expect(serialized).not.toContain('enc-1');
    expect(serialized).not.toContain('sig-1');
    expect(serialized).not.toContain('thinking 1');
  });
});

describe('reasoning parts in the viewer and OpenTelemetry', () => {
  it('the viewer shows their text on the model call, and OTel output messages carry it as a reasoning part', async () => {
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([reasoningTurn(1), ScriptedAdapter.text('Done.')]),
      { lookup },
    ).run([user]);
    const model = buildTraceModel(result.traces);
    const items = model.runs.flatMap((run) => run.turns.flatMap((turn) => turn.items));
    const modelItems = items.filter((item): item is ModelItem => item.kind === 'model');
    expect(modelItems[0]!.reasoning).toBe('thinking 1');
    expect(JSON.parse(outputMessagesJson(reasoningTurn(1)))).toEqual([
      expect.objectContaining({
        role: 'assistant',
        parts: [
          { type: 'reasoning', content: 'thinking 1' },
          expect.objectContaining({ type: 'tool_call', id: 'call_1', name: 'lookup' }),
        ],
      }),
    ]);
  });
});
