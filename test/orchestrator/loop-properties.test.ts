import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, ModelAdapter, ModelResponse, OnMaxTurns } from '../../src/index.js';

const tools = {
  add: defineTool({
    name: 'add',
    description: 'Add',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  }),
  flaky: defineTool({
    name: 'flaky',
    description: 'Sometimes throws',
    parameters: z.object({ fail: z.boolean() }),
    execute: async ({ fail }) => {
      if (fail) throw new Error('flaky failed');
      return { ok: true };
    },
  }),
};

const argumentsArbitrary = fc.oneof(
  fc.record({ a: fc.integer(), b: fc.integer() }).map((value) => JSON.stringify(value)),
  fc.boolean().map((fail) => JSON.stringify({ fail })),
  fc.constantFrom('', '{', '{"a":1', 'null', '[]', '{"a":"x","b":2}'),
  fc.string(),
);
const toolCallArbitrary = fc.record({
  id: fc.constantFrom('c1', 'c2', 'c3', ''),
  name: fc.constantFrom('add', 'flaky', 'missing', ''),
  arguments: argumentsArbitrary,
});
const responseArbitrary: fc.Arbitrary<ModelResponse> = fc
  .record({
    content: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
    toolCalls: fc.array(toolCallArbitrary, { maxLength: 4 }),
    finishReason: fc.constantFrom('stop', 'tool_calls', 'length'),
  })
  .map(({ content, toolCalls, finishReason }) => ({
    content,
    finish_reason: finishReason,
    ...(toolCalls.length === 0
      ? {}
      : {
          tool_calls: toolCalls.map((toolCall) => ({
            id: toolCall.id,
            type: 'function' as const,
            function: { name: toolCall.name, arguments: toolCall.arguments },
          })),
        }),
  }));

describe('loop invariants under random model behaviour', () => {
  it('answers every tool call once, respects maxTurns and pairs every tool_call event with a tool_result', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(responseArbitrary, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom<OnMaxTurns>('return', 'final_answer'),
        fc.integer({ min: 1, max: 3 }),
        async (script, maxTurns, onMaxTurns, toolConcurrency) => {
          let calls = 0;
          const adapter: ModelAdapter = {
            async call() {
              const response = script[calls % script.length]!;
              calls++;
              return response;
            },
          };
          const orchestrator = new ToolOrchestrator(adapter, tools, {
            maxTurns,
            onMaxTurns,
            toolConcurrency,
          });
          const result = await orchestrator.run([{ role: 'user', content: 'go' }]);

          // 1. Every assistant tool_call id has exactly one tool message, and no tool message is orphaned.
          const requested = result.messages.flatMap((message: ChatMessage) =>
            message.role === 'assistant' ? (message.tool_calls ?? []).map((toolCall) => toolCall.id) : [],
          );
          const answered = result.messages.flatMap((message) =>
            message.role === 'tool' ? [message.tool_call_id] : [],
          );
          expect(new Set(requested).size).toBe(requested.length);
          expect([...answered].sort()).toEqual([...requested].sort());

          // 2. At most maxTurns model calls, plus one for 'final_answer'.
          expect(calls).toBe(result.turns);
          expect(calls).toBeLessThanOrEqual(maxTurns + (onMaxTurns === 'final_answer' ? 1 : 0));

          // 3. Every tool_call event has its tool_result.
          const callEvents = result.traces.filter((event) => event.type === 'tool_call');
          const resultEvents = result.traces.filter((event) => event.type === 'tool_result');
          expect(resultEvents.map((event) => event.data.toolCallId).sort()).toEqual(
            callEvents.map((event) => event.data.toolCall.id).sort(),
          );
          // Sequence numbers are strictly increasing.
          result.traces.forEach((event, index) => expect(event.seq).toBe(index));
        },
      ),
      { numRuns: 300 },
    );
  });
});
