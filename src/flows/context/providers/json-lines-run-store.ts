import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunHistoryStore, RunRecord } from './run-history-store.js';

/**
 * A {@link RunHistoryStore} over a JSON-lines file: one record a line, appended. Lines that
 * are not valid JSON records (a crash mid-write) are skipped when reading.
 *
 * @example
 * const runStore = new JsonLinesRunStore('.agent/runs.jsonl');
 */
export class JsonLinesRunStore implements RunHistoryStore {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  async append(record: RunRecord): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await appendFile(this.path, `${JSON.stringify(record)}\n`, 'utf8');
  }

  async recent(limit: number): Promise<RunRecord[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const records: RunRecord[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const value = JSON.parse(line) as unknown;
        if (typeof value === 'object' && value !== null && typeof (value as RunRecord).task === 'string')
          records.push(value as RunRecord);
      } catch {
        // A torn last line from an interrupted write: skip it.
      }
    }
    return records.slice(-limit).reverse();
  }
}
