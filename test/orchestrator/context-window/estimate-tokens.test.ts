import { estimateTokenCount } from 'tokenx';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/index.js';

const code = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
const chinese = '上下文窗口管理：长时间运行的代理永远不会超出模型的窗口。';

describe('estimateTokens: the default countTokens', () => {
  it('counts ASCII text as its length over 4, short or long', () => {
    expect(estimateTokens('const answer = 42;')).toBe(5);
    expect(estimateTokens(code)).toBe(Math.ceil(code.length / 4));
    const long = code.repeat(200);
    expect(estimateTokens(long)).toBe(Math.ceil(long.length / 4));
    expect(estimateTokens('')).toBe(0);
  });

  it("gives text with other characters tokenx's estimate, where length over 4 would count far too few", () => {
    expect(estimateTokens(chinese)).toBe(estimateTokenCount(chinese));
    expect(estimateTokens(chinese)).toBeGreaterThan(chinese.length / 2);
    const long = chinese.repeat(100);
    expect(estimateTokens(long)).toBe(estimateTokenCount(long));
    expect(estimateTokens('Größe: 12 Äpfel')).toBe(estimateTokenCount('Größe: 12 Äpfel'));
  });

  it('sees a run of 64 non-ASCII characters anywhere in a long ASCII text', () => {
    const run = chinese.repeat(3).slice(0, 64);
    const ascii = code.repeat(100);
    for (const at of [0, 1, 63, 64, 1000, 3333, ascii.length]) {
      const text = `${ascii.slice(0, at)}${run}${ascii.slice(at)}`;
      expect(estimateTokens(text), `a run at ${at}`).toBe(estimateTokenCount(text));
    }
  });
});
