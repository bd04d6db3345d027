import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolCall, ToolMessage } from '../../../src/index.js';
import { estimateTokens, messageTokens } from '../../../src/orchestrator/context-window/estimate-tokens.js';
import { placeholderOf } from '../../../src/orchestrator/context-window/mask-observations.js';

const result = (content: string): ToolMessage => ({ role: 'tool', tool_call_id: 'call_1', content });
const call = (name: string, args: string): ToolCall => ({
  id: 'call_1',
  type: 'function',
  function: { name, arguments: args },
});

describe('placeholderOf: what a masked result is sent as', () => {
  it('counts its tokens as the default estimate counts its text, ASCII or not, without reading it all', () => {
    // Names and arguments from the whole of UTF-16, so both the length rule and tokenx's are taken.
    const text = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }));
    fc.assert(
      fc.property(text, text, fc.nat({ max: 2_000_000 }), (name, args, size) => {
        const placeholder = placeholderOf(result('x'.repeat(size % 5000)), call(name, args), estimateTokens);
        expect(placeholder.tokens).toBe(messageTokens(placeholder.message, estimateTokens));
      }),
    );
  });

  it('asks a custom counter for the count of its text', () => {
    const seen: string[] = [];
    const countTokens = (text: string): number => {
      seen.push(text);
      return 7;
    };
    const placeholder = placeholderOf(
      result('x'.repeat(18_234)),
      call('read_file', '{"path":"a.ts"}'),
      countTokens,
    );
    expect(placeholder.message).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content:
        '[Elided to fit the context window: read_file({"path":"a.ts"}) returned 18,234 characters. Call it again to see them.]',
    });
    expect(seen).toEqual([placeholder.message.content]);
    expect(placeholder.tokens).toBe(4 + 7);
  });

  it('quotes at most 120 characters of the arguments, and names the tool when the call is unknown', () => {
    const long = `{"pattern":"${'a'.repeat(200)}"}`;
    const placeholder = placeholderOf(result('abc'), call('search_text', long), estimateTokens);
    expect(placeholder.message.content).toContain(
      `search_text(${long.slice(0, 120)}…) returned 3 characters`,
    );
    expect(placeholder.tokens).toBe(messageTokens(placeholder.message, estimateTokens));
    expect(placeholderOf(result('abc'), undefined, estimateTokens).message.content).toContain(
      'the tool() returned 3 characters',
    );
  });
});
