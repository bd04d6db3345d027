import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import type { ChatMessage } from '../model/messages.js';
import { emptyHash, hashText } from '../shared/hash-text.js';
import type { PreparedTranscript } from './transcript-tracker.js';

/**
 * The transcript file format of `FileCheckpointStore`: one line per message, `<hash> <json>\n`,
 * where `<hash>` is the running FNV-1a 64 hash (16 hex digits) of the JSON of every message up to
 * and including this one. A line whose hash does not match is damage, reported, never skipped.
 */
export function encodeLines(prepared: PreparedTranscript, from: number): string {
  let text = '';
  for (let index = from; index < prepared.messages.length; index++) {
    text += `${prepared.hashes[index]!} ${prepared.json(index)}\n`;
  }
  return text;
}

/** Reads `count` messages back from transcript lines, checking every line's running hash. */
export function decodeLines(
  text: string,
  count: number,
  where: { readonly runId: string; readonly file: string },
): { messages: ChatMessage[]; hashes: string[] } {
  const messages: ChatMessage[] = [];
  const hashes: string[] = [];
  let previous = emptyHash;
  let start = 0;
  const damaged = (index: number, value: unknown, problem: string, cause?: unknown): never => {
    throw new InvalidRunStateError({
      path: `messages[${index}]`,
      value,
      runId: where.runId,
      message: `${problem} in ${where.file}: the checkpoint is damaged. Delete the run's checkpoint, or restore the file from a backup.`,
      ...(cause === undefined ? {} : { cause }),
    });
  };
  for (let index = 0; index < count; index++) {
    const end = text.indexOf('\n', start);
    if (end === -1) damaged(index, text.slice(start, start + 80), 'the line is missing or cut short');
    const line = text.slice(start, end);
    start = end + 1;
    const json = line.slice(17);
    previous = hashText(json, previous);
    if (line.charAt(16) !== ' ' || line.slice(0, 16) !== previous) {
      damaged(index, line.slice(0, 80), 'the line does not match its checksum');
    }
    let message: ChatMessage;
    try {
      message = JSON.parse(json) as ChatMessage;
    } catch (error) {
      damaged(index, line.slice(0, 80), 'the line is not JSON', error);
    }
    messages.push(message!);
    hashes.push(previous);
  }
  return { messages, hashes };
}
