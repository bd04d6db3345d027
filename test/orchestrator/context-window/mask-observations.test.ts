import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolCall, ToolMessage } from '../../../src/index.js';
import { groupThousands, placeholderOf } from '../../../src/orchestrator/context-window/mask-observations.js';

const result = (content: string): ToolMessage => ({ role: 'tool', tool_call_id: 'call_1', content });
const call = (name: string, args: string): ToolCall => ({
  id: 'call_1',
  type: 'function',
  function: { name, arguments: args },
});

describe('placeholderOf: what a masked result is sent as', () => {
  it('names the call, quotes its arguments and gives the size with thousands separators, ASCII or not', () => {
    const text = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }));
    fc.assert(
      fc.property(text, text, fc.nat({ max: 2_000_000 }), (name, args, size) => {
        const placeholder = placeholderOf(result('x'.repeat(size % 5000)), call(name, args));
        const quoted = args.length > 120 ? `${args.slice(0, 120)}…` : args;
        expect(placeholder).toEqual({
          role: 'tool',
          tool_call_id: 'call_1',
          content: `[Elided to fit the context window: ${name}(${quoted}) returned ${(size % 5000).toLocaleString('en-US')} characters. Call it again to see them.]`,
        });
      }),
    );
  });

  it('says how to get the result back', () => {
    expect(placeholderOf(result('x'.repeat(18_234)), call('read_file', '{"path":"a.ts"}'))).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content:
        '[Elided to fit the context window: read_file({"path":"a.ts"}) returned 18,234 characters. Call it again to see them.]',
    });
  });

  it('quotes at most 120 characters of the arguments, and names the tool when the call is unknown', () => {
    const long = `{"pattern":"${'a'.repeat(200)}"}`;
    const placeholder = placeholderOf(result('abc'), call('search_text', long));
    expect(placeholder.content).toContain(`search_text(${long.slice(0, 120)}…) returned 3 characters`);
    expect(placeholderOf(result('abc'), undefined).content).toContain('the tool() returned 3 characters');
  });
});

describe('groupThousands', () => {
  it("writes a non-negative integer as toLocaleString('en-US') does", () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.maxSafeNat()), (value) => {
        expect(groupThousands(value)).toBe(value.toLocaleString('en-US'));
      }),
    );
  });
});
