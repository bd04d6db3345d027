import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/shared/canonical-json.js';
import { emptyHash, hashText } from '../../src/shared/hash-text.js';

/** FNV-1a 64 as its definition reads: BigInt arithmetic over TextEncoder's UTF-8 bytes. */
function referenceFnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

describe('hashText (FNV-1a 64 over UTF-8)', () => {
  it('gives the published test vectors', () => {
    expect(hashText('')).toBe(emptyHash);
    expect(hashText('')).toBe('cbf29ce484222325');
    expect(hashText('a')).toBe('af63dc4c8601ec8c');
    expect(hashText('foobar')).toBe('85944171f73967e8');
  });

  it('equals the BigInt reference on any text, lone surrogates and astral characters included', () => {
    for (const text of [
      '\ud800',
      'a\udc00b',
      '\udbff\udfff',
      '𝄞\ud83d',
      'é€',
      '\u0000\u007f\u0080\u07ff\u0800\uffff',
    ]) {
      expect(hashText(text), JSON.stringify(text)).toBe(referenceFnv1a64(text));
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(hashText(text)).toBe(referenceFnv1a64(text));
      }),
      { numRuns: 200 },
    );
  });

  it('continues from a previous hash: hashText(b, hashText(a)) is hashText(a + b)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(hashText(b, hashText(a))).toBe(hashText(a + b));
      }),
    );
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order and a "__proto__" key', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('gives the same text for equal values written in any key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
