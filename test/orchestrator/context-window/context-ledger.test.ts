import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/index.js';
import { ContextLedger } from '../../../src/orchestrator/context-window/context-ledger.js';
import { createContextWindowState } from '../../../src/orchestrator/context-window/context-window-state.js';
import type { ContextSummary } from '../../../src/orchestrator/context-window/context-window-state.js';
import { estimateTokens, messageTokens } from '../../../src/orchestrator/context-window/estimate-tokens.js';
import { summaryMessage } from '../../../src/orchestrator/context-window/summary-message.js';

/** What is sent, built from scratch: the summary for its range, a placeholder for each masked result. */
function plainView(
  ledger: ContextLedger,
  transcript: readonly ChatMessage[],
  masked: ReadonlySet<string>,
  summary: ContextSummary | undefined,
): ChatMessage[] {
  const view: ChatMessage[] = [];
  for (let index = 0; index < transcript.length; index++) {
    if (summary !== undefined && index === summary.start) {
      view.push(summaryMessage(summary.content));
      index = summary.end - 1;
      continue;
    }
    const message = transcript[index]!;
    view.push(
      message.role === 'tool' && masked.has(message.tool_call_id)
        ? ledger.placeholder(message.tool_call_id, message)
        : message,
    );
  }
  return view;
}

type Step =
  | { readonly type: 'turn'; readonly calls: number }
  | { readonly type: 'mask'; readonly picks: readonly number[] }
  | { readonly type: 'summarize'; readonly turns: number };

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
);

describe('ContextLedger.view: the sent view kept between calls', () => {
  it('always equals the view built from scratch, and a view a reduction replaced is left as it was', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const transcript: ChatMessage[] = [
          { role: 'system', content: 'system' },
          { role: 'user', content: 'task' },
        ];
        const state = createContextWindowState(32_768);
        const ledger = new ContextLedger(estimateTokens);
        let summary: ContextSummary | undefined;
        let callId = 0;
        /** Transcript indexes where a turn starts (an assistant message). */
        const turnStarts: number[] = [];
        let previous:
          | {
              view: readonly ChatMessage[];
              copy: ChatMessage[];
              masks: number;
              summary: ContextSummary | undefined;
            }
          | undefined;
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
            const open = transcript.flatMap((message) =>
              message.role === 'tool' && !state.maskedToolCallIds.includes(message.tool_call_id)
                ? [message.tool_call_id]
                : [],
            );
            const picked: string[] = [];
            for (const pick of next.picks) {
              if (open.length === 0) break;
              picked.push(open.splice(pick % open.length, 1)[0]!);
            }
            // Masks come by id (a resumed run's state) or by position (a reduction's `mask`).
            if (next.picks[0]! % 2 === 0) state.maskedToolCallIds.push(...picked);
            else {
              ledger.sync(transcript, state);
              ledger.mask(
                picked.map((id) => ledger.toolOrder.indexOf(id)),
                state,
              );
            }
          } else if (turnStarts.length > next.turns) {
            // Like 'summarize': whole turns after the head, ending before an assistant message.
            const end =
              turnStarts[
                Math.max(next.turns, summary === undefined ? 0 : turnStarts.indexOf(summary.end) + 1)
              ];
            if (end !== undefined && end > (summary?.end ?? 2))
              summary = { content: `summary to ${end}`, start: 2, end };
          }
          ledger.sync(transcript, state);
          const view = ledger.view(summary);
          const masked = new Set(state.maskedToolCallIds);
          expect(view).toEqual(plainView(ledger, transcript, masked, summary));
          let saving = 0;
          for (const id of masked) {
            const index = transcript.findIndex(
              (message) => message.role === 'tool' && message.tool_call_id === id,
            );
            const placeholder = ledger.placeholder(id, transcript[index]!);
            saving += Math.max(
              0,
              messageTokens(transcript[index]!, estimateTokens) - messageTokens(placeholder, estimateTokens),
            );
          }
          expect(ledger.maskedSaving).toBe(saving);
          // A reduction sends a new array: the one sent before it (an event's snapshot) keeps what it had.
          const masks = state.maskedToolCallIds.length;
          if (previous !== undefined && (previous.masks !== masks || previous.summary !== summary)) {
            expect(view).not.toBe(previous.view);
            expect(previous.view).toEqual(previous.copy);
          }
          previous = { view, copy: [...view], masks, summary };
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('ContextLedger: masks by id from the state', () => {
  it('applies a mask whose result is not in the transcript yet once it arrives, and only to that result', () => {
    const state = createContextWindowState(32_768);
    const ledger = new ContextLedger(estimateTokens);
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
    // A resumed run's state, or a replaced transcript that no longer has the masked result.
    state.maskedToolCallIds.push('call_b');
    ledger.sync(transcript, state);
    expect(ledger.maskedCount).toBe(0);
    expect(ledger.isMasked('call_b')).toBe(true);
    expect(ledger.view(undefined)).toBe(transcript);
    transcript.push(call('call_b'), result('call_b'), call('call_c'), result('call_c'));
    ledger.sync(transcript, state);
    expect(ledger.maskedCount).toBe(1);
    expect(ledger.isMaskedAt(1)).toBe(true);
    const view = ledger.view(undefined);
    expect(view.map((message) => (message.role === 'tool' ? message.content.length : 0))).toEqual([
      0,
      0,
      4000,
      0,
      ledger.placeholderAt(1).content.length,
      0,
      4000,
    ]);
    expect(ledger.placeholderAt(1).content).toContain('read({}) returned 4,000 characters');
    expect(ledger.maskedSaving).toBe(ledger.maskSavingAt(1));
  });
});
