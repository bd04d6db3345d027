/** How many leading bytes are scanned for a NUL byte to call a file binary (what git and ripgrep do). */
export const binarySniffBytes = 8192;

/** True when the first 8 KB of `bytes` hold a NUL byte: the file is treated as binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, binarySniffBytes).includes(0);
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Decodes UTF-8, replacing invalid sequences with U+FFFD instead of throwing. */
export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
