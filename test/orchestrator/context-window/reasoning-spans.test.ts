import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../../src/index.js';
import type {
  AssistantMessage,
  ChatMessage,
  ContextWindowOptions,
  ModelAdapter,
  ModelResponse,
  TraceEvent,
} from '../../../src/index.js';
import { expectValidTranscript } from '../../support/transcript.js';

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `${path}\n${'const line = compute(value); // a line of code\n'.repeat(200)}`,
});

/** A reasoning model: every tool turn carries reasoning parts and provider data it verifies later. */
function reasoningExplorer(turns: number): { adapter: ModelAdapter; received: ChatMessage[][] } {
  const received: ChatMessage[][] = [];
  let call = 0;
  const adapter: ModelAdapter = {
    provider: 'fake',
    providerDataKey: 'fake.api',
    async call(messages, tools) {
      if (tools.length === 0) {
        // The summary call of 'summarize'.
        return { content: `Read ${call} files so far.`, finish_reason: 'stop' };
      }
      received.push([...messages]);
      const index = call++;
      if (index >= turns) return { content: 'done', finish_reason: 'stop' };
      return {
        content: null,
        finish_reason: 'tool_calls',
        reasoning: [
          {
            type: 'reasoning',
            text: `Turn ${index}: the next file to read is file${index}.`,
            providerData: {
              'fake.api': { id: `rs_${index}`, encrypted_content: `enc-${index}-${'x'.repeat(64)}` },
            },
          },
        ],
        providerData: { 'fake.api': { signature: `sig-${index}` } },
        tool_calls: [
          {
            id: `call_${index}`,
            type: 'function',
            function: { name: 'read_file', arguments: JSON.stringify({ path: `src/file${index}.ts` }) },
            providerData: { 'fake.api': { thought_signature: `ts-${index}` } },
          },
        ],
      } satisfies ModelResponse;
    },
  };
  return { adapter, received };
}

async function explore(contextWindow: ContextWindowOptions) {
  const run = reasoningExplorer(60);
  const events: TraceEvent[] = [];
  const result = await new ToolOrchestrator(
    run.adapter,
    { read_file: readFile },
    { maxTurns: 61, loopGuard: false, contextWindow, traceEmitter: (event) => void events.push(event) },
  ).run([{ role: 'user', content: 'Explore the repository.' }], 'You explore code.');
  expect(result.stopReason).toBe('final');
  expect(events.filter((event) => event.type === 'context_compacted').length).toBeGreaterThan(0);
  return { ...run, result };
}

/** Every assistant message a call sent is one of the transcript's, exactly as the provider returned it. */
function expectReasoningIntact(received: readonly ChatMessage[][], transcript: readonly ChatMessage[]): void {
  const byCallId = new Map<string, AssistantMessage>();
  for (const message of transcript) {
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) byCallId.set(call.id, message);
  }
  let checked = 0;
  for (const messages of received) {
    expectValidTranscript(messages);
    for (const message of messages) {
      if (message.role !== 'assistant' || message.tool_calls === undefined) continue;
      expect(message).toStrictEqual(byCallId.get(message.tool_calls[0]!.id));
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(100);
}

describe('the context window and reasoning the provider verifies', () => {
  it('masking replaces tool results only: every reasoning span is sent whole or not at all', async () => {
    const run = await explore({ maxTokens: 16_384 });
    expectReasoningIntact(run.received, run.result.messages);
    // The latest turn's reasoning is always sent: the provider needs it for the call it answers.
    for (const messages of run.received.slice(1)) {
      const lastAssistant = messages
        .filter((message) => message.role === 'assistant')
        .at(-1) as AssistantMessage;
      expect(lastAssistant.reasoning?.[0]?.providerData).toBeDefined();
    }
  });

  it('a summary drops whole turns, reasoning included, and never sends one changed', async () => {
    const run = await explore({ maxTokens: 16_384, strategy: 'summarize', keepRecent: 3 });
    expectReasoningIntact(run.received, run.result.messages);
    const last = run.received.at(-1)!;
    expect(last[2]!.content).toMatch(/^\[Summary of the earlier part of this conversation/);
  });
});
