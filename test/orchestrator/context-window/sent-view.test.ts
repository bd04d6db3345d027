import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolMessage } from '../../../src/index.js';
import { estimateTokens, messageTokens } from '../../../src/orchestrator/context-window/estimate-tokens.js';
import { SentViews, sentMessages } from '../../../src/orchestrator/context-window/sent-view.js';
import type { SummaryInView } from '../../../src/orchestrator/context-window/sent-view.js';
import { summaryMessage } from '../../../src/orchestrator/context-window/summary-message.js';

type Step =
  | { readonly type: 'turn'; readonly calls: number }
  | { readonly type: 'mask'; readonly picks: readonly number[] }
  | { readonly type: 'summarize'; readonly turns: number }
  | { readonly type: 'restoredSummary'; readonly beyond: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ type: fc.constant('turn' as const), calls: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('mask' as const),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('summarize' as const), turns: fc.integer({ min: 1, max: 4 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('restoredSummary' as const),
      beyond: fc.integer({ min: 1, max: 6 }),
    }),
  },
);

describe('SentViews.build: the sent view, extended between calls', () => {
  it('always equals the view built from scratch, counted message by message, and only appends to a view it returned', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const transcript: ChatMessage[] = [
          { role: 'system', content: 'system' },
          { role: 'user', content: 'task' },
        ];
        const views = new SentViews(estimateTokens);
        const masked = new Set<string>();
        let summary: SummaryInView | undefined;
        let callId = 0;
        /** Transcript indexes where a turn starts (an assistant message). */
        const turnStarts: number[] = [];
        const returned: { view: readonly ChatMessage[]; copy: ChatMessage[] }[] = [];
        for (const next of steps) {
          if (next.type === 'turn') {
            turnStarts.push(transcript.length);
            const ids = Array.from({ length: next.calls }, () => `call_${callId++}`);
            transcript.push({
              role: 'assistant',
              content: null,
              tool_calls: ids.map((id) => ({
                id,
                type: 'function' as const,
                function: { name: 'read', arguments: JSON.stringify({ id }) },
              })),
            });
            for (const id of ids)
              transcript.push({ role: 'tool', tool_call_id: id, content: `${id} `.repeat(80) });
          } else if (next.type === 'mask') {
            // Some ids answer nothing yet (a resumed run's state): masked once their result arrives.
            for (const pick of next.picks) masked.add(`call_${pick % (callId + 3)}`);
          } else if (next.type === 'summarize') {
            // Like 'summarize': whole turns after the head, ending before an assistant message.
            const end = turnStarts[next.turns];
            if (end !== undefined && end > (summary?.end ?? 2)) {
              summary = { start: 2, end, message: summaryMessage(`summary to ${end}`) };
            }
          } else {
            // A restored summary may stand for messages the transcript does not have yet.
            const end = transcript.length + next.beyond;
            summary = { start: 2, end, message: summaryMessage(`summary to ${end}`) };
          }
          const reductions = { masked, summary };
          const view = views.build(transcript, reductions);
          const reference = new SentViews(estimateTokens);
          const expected = sentMessages(transcript, reductions, reference.placeholder);
          expect(view.messages).toEqual(expected);
          expect(view.tokens).toBe(
            expected.reduce((sum, message) => sum + messageTokens(message, estimateTokens), 0),
          );
          if (masked.size === 0 && summary === undefined) expect(view.messages).toBe(transcript);
          else returned.push({ view: view.messages, copy: [...view.messages] });
        }
        // An earlier call's view still starts with what that call sent (its event snapshots it lazily).
        for (const { view, copy } of returned) expect(view.slice(0, copy.length)).toEqual(copy);
      }),
      { numRuns: 300 },
    );
  });
});

describe('SentViews: counts and placeholders', () => {
  it('masks a result by id once it arrives, and counts each message and placeholder once', () => {
    const seen: string[] = [];
    const views = new SentViews((text) => {
      seen.push(text);
      return Math.ceil(text.length / 4);
    });
    const call = (id: string): ChatMessage => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: '{}' } }],
    });
    const result = (id: string): ChatMessage => ({
      role: 'tool',
      tool_call_id: id,
      content: 'x'.repeat(4000),
    });
    const transcript: ChatMessage[] = [{ role: 'user', content: 'task' }, call('call_a'), result('call_a')];
    const reductions = { masked: new Set(['call_b']), summary: undefined };
    expect(views.build(transcript, reductions).messages).toEqual(transcript);
    transcript.push(call('call_b'), result('call_b'), call('call_c'), result('call_c'));
    const view = views.build(transcript, reductions);
    const placeholder = view.messages[4] as ToolMessage;
    expect(placeholder).toEqual({
      role: 'tool',
      tool_call_id: 'call_b',
      content:
        '[Elided to fit the context window: read({}) returned 4,000 characters. Call it again to see them.]',
    });
    expect(view.messages).toEqual([...transcript.slice(0, 4), placeholder, ...transcript.slice(5)]);
    expect(views.saving(transcript, 4)).toBe(1004 - (4 + Math.ceil(placeholder.content.length / 4)));
    const counted = seen.length;
    views.build(transcript, reductions);
    views.build([...transcript], reductions);
    expect(seen).toHaveLength(counted);
    expect(seen.filter((text) => text === placeholder.content)).toHaveLength(1);
  });
});
