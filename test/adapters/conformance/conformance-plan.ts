/**
 * What the model of a conformance scenario does, turn by turn, whatever wire the fake server
 * speaks: the server turns each planned turn into its provider's answer, with the reasoning,
 * signatures and usage that provider returns.
 */

/** One tool call the model makes. */
export interface PlannedCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** One model turn: tool calls, or a final answer. */
export interface PlannedTurn {
  readonly calls?: readonly PlannedCall[];
  readonly content?: string;
  /** Streams the first piece of the answer, then sends nothing more until the client goes away. */
  readonly stall?: boolean;
}

/** The turn the model answers with, given how many assistant turns the request already holds. */
export type Plan = (turn: number) => PlannedTurn;

/** `lookup` calls, one a turn, for each word, then an answer naming them. */
export function lookupEach(words: readonly string[]): Plan {
  return (turn) =>
    turn < words.length
      ? { calls: [{ name: 'lookup', arguments: { word: words[turn] } }] }
      : { content: `Found ${words.join(', ')}.` };
}

/** Every word looked up in one turn of parallel calls, then an answer. */
export function lookupAllAtOnce(words: readonly string[]): Plan {
  return (turn) =>
    turn === 0
      ? { calls: words.map((word) => ({ name: 'lookup', arguments: { word } })) }
      : { content: `Found ${words.join(' and ')}.` };
}

/** A lookup, then the named tool (one needing approval, or one that hangs), then an answer. */
export function lookupThen(name: string, finalContent: string): Plan {
  return (turn) => {
    if (turn === 0) return { calls: [{ name: 'lookup', arguments: { word: 'first' } }] };
    if (turn === 1) return { calls: [{ name, arguments: { path: 'notes.txt' } }] };
    return { content: finalContent };
  };
}
