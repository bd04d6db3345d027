/** What the scripted server streams and answers; shared by the server worker and the client child. */
export const finalText = 'All tool calls are done.';
export const argumentsText = '{"a":1,"b":2}';

export interface ServerWorkerData {
  /** BigInt64Array over it: send time of delta chunk i of the current long answer. */
  readonly sendTimes: SharedArrayBuffer;
  readonly contentTokens: number;
  readonly argumentFragments: number;
  /** Turns of the non-streaming run: this many tool-call turns, then the final text. */
  readonly runToolTurns: number;
  /** Milliseconds between streamed chunks. */
  readonly chunkIntervalMs: number;
}
