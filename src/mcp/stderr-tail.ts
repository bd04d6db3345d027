/** Keeps the end of a child process's stderr for error reports, and passes chunks on. */
export class StderrTail {
  readonly #keep: number;
  readonly #onText: ((text: string) => void) | undefined;
  #text = '';

  constructor(onText?: (text: string) => void, keepChars = 8_192) {
    this.#onText = onText;
    this.#keep = keepChars;
  }

  /** Reads `stream` as UTF-8 until it ends. */
  attach(stream: NodeJS.ReadableStream): void {
    stream.setEncoding?.('utf8');
    stream.on('data', (chunk: string | Buffer) => this.append(String(chunk)));
  }

  append(text: string): void {
    this.#text = (this.#text + text).slice(-this.#keep);
    try {
      this.#onText?.(text);
    } catch {
      // A throwing listener must not break reading the stream.
    }
  }

  /** The last `lines` non-empty lines (at most 2,000 characters), or `undefined` when there was no output. */
  tail(lines = 20): string | undefined {
    const kept = this.#text
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '')
      .slice(-lines)
      .join('\n');
    if (kept === '') return undefined;
    return kept.length > 2_000 ? `...${kept.slice(-2_000)}` : kept;
  }
}
