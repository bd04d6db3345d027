/**
 * FNV-1a, 64-bit, over the UTF-8 bytes of a string: a small, pure hash that runs in every runtime
 * (no `node:crypto`). It is for noticing change (a tool's schema, a stored transcript), not for
 * security. The 64-bit state is kept as four 16-bit limbs so every product stays a small integer.
 */

/** The FNV-1a 64-bit offset basis, as 16 hex digits: the hash of the empty string. */
export const emptyHash = 'cbf29ce484222325';

/**
 * Hashes `text` (its UTF-8 bytes) with FNV-1a 64 and returns 16 lowercase hex digits. With
 * `previous` (a hash this function returned), hashing continues from it, so
 * `hashText(b, hashText(a)) === hashText(a + b)`: a running hash over a sequence of texts.
 */
export function hashText(text: string, previous: string = emptyHash): string {
  let h3 = Number.parseInt(previous.slice(0, 4), 16);
  let h2 = Number.parseInt(previous.slice(4, 8), 16);
  let h1 = Number.parseInt(previous.slice(8, 12), 16);
  let h0 = Number.parseInt(previous.slice(12, 16), 16);
  const bytes = [0, 0, 0, 0];
  const length = text.length;
  for (let index = 0; index < length; index++) {
    let code = text.charCodeAt(index);
    let count = 1;
    if (code < 0x80) {
      bytes[0] = code;
    } else {
      if (code >= 0xd800 && code <= 0xdbff && index + 1 < length) {
        const next = text.charCodeAt(index + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          index++;
        }
      }
      // A lone surrogate becomes U+FFFD, as TextEncoder encodes it.
      if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
      count = utf8Bytes(code, bytes);
    }
    for (let byte = 0; byte < count; byte++) {
      h0 ^= bytes[byte]!;
      // h * 0x100_0000_01b3 mod 2^64, limb by limb: 0x1b3 in limb 0, 0x100 in limb 2.
      const t0 = h0 * 0x1b3;
      const t1 = h1 * 0x1b3 + (t0 >>> 16);
      const t2 = h2 * 0x1b3 + h0 * 0x100 + (t1 >>> 16);
      h3 = (h3 * 0x1b3 + h1 * 0x100 + (t2 >>> 16)) & 0xffff;
      h0 = t0 & 0xffff;
      h1 = t1 & 0xffff;
      h2 = t2 & 0xffff;
    }
  }
  return limb(h3) + limb(h2) + limb(h1) + limb(h0);
}

/** Writes the UTF-8 bytes of a code point at or above 0x80 into `bytes`; returns how many. */
function utf8Bytes(code: number, bytes: number[]): number {
  if (code < 0x800) {
    bytes[0] = 0xc0 | (code >> 6);
    bytes[1] = 0x80 | (code & 0x3f);
    return 2;
  }
  if (code < 0x10000) {
    bytes[0] = 0xe0 | (code >> 12);
    bytes[1] = 0x80 | ((code >> 6) & 0x3f);
    bytes[2] = 0x80 | (code & 0x3f);
    return 3;
  }
  bytes[0] = 0xf0 | (code >> 18);
  bytes[1] = 0x80 | ((code >> 12) & 0x3f);
  bytes[2] = 0x80 | ((code >> 6) & 0x3f);
  bytes[3] = 0x80 | (code & 0x3f);
  return 4;
}

function limb(value: number): string {
  return value.toString(16).padStart(4, '0');
}
