import { estimateTokenCount } from 'tokenx';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/index.js';

const code = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
const chinese = '上下文窗口管理：长时间运行的代理永远不会超出模型的窗口。';
const german = 'Die Größe der Äpfel übersteigt die Grenze; Straße und Maß bleiben gleich. ';
const russian = 'Окно контекста: длинные запуски никогда не выходят за пределы окна модели.';

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
    expect(estimateTokens(russian)).toBe(estimateTokenCount(russian));
    expect(estimateTokens(russian.repeat(20))).toBe(estimateTokenCount(russian.repeat(20)));
    expect(estimateTokens('naïve — “quoted”')).toBe(estimateTokenCount('naïve — “quoted”'));
  });

  it('counts Latin-1 text (accented Western European letters) by length too, short or long', () => {
    // Closer to DeepSeek's tokenizer than tokenx on German, French, Spanish, Italian and Portuguese
    // (docs/context-window.md).
    expect(estimateTokens('Größe: 12 Äpfel')).toBe(Math.ceil('Größe: 12 Äpfel'.length / 4));
    expect(estimateTokens(german)).toBe(Math.ceil(german.length / 4));
    const long = german.repeat(50);
    expect(estimateTokens(long)).toBe(Math.ceil(long.length / 4));
    expect(estimateTokenCount(long)).not.toBe(Math.ceil(long.length / 4));
  });

  it("gives a text with even one character above U+00FF anywhere (a dash, a quote) tokenx's estimate", () => {
    const host = code.repeat(100);
    for (const character of ['—', '“', 'ł', '€', '😀']) {
      for (const at of [0, 1, 63, 64, 1000, 3333, host.length]) {
        const text = `${host.slice(0, at)}${character}${host.slice(at)}`;
        expect(estimateTokens(text), `${character} at ${at}`).toBe(estimateTokenCount(text));
        expect(estimateTokens(text)).not.toBe(Math.ceil(text.length / 4));
      }
    }
  });

  it('sees a run of 64 characters above U+00FF anywhere in a long ASCII or Latin-1 text', () => {
    const run = chinese.repeat(3).slice(0, 64);
    for (const host of [code.repeat(100), german.repeat(60)]) {
      for (const at of [0, 1, 63, 64, 1000, 3333, host.length]) {
        const text = `${host.slice(0, at)}${run}${host.slice(at)}`;
        expect(estimateTokens(text), `a run at ${at}`).toBe(estimateTokenCount(text));
      }
    }
  });
});
