import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { searchWorkerSource } from './search-worker-source.js';

/** Options of {@link runSearch}. */
export interface RunSearchOptions {
  /** Absolute real path of the repository root. */
  readonly root: string;
  /** Repo-relative files to search, in output order; a promise lets workers boot during the walk. */
  readonly files: readonly string[] | Promise<readonly string[]>;
  /** A valid JavaScript regular expression source and its flags (with `g` and `m`). */
  readonly source: string;
  readonly flags: string;
  /** The pattern as plain ASCII text when it has no regex syntax: enables a byte-level prefilter. */
  readonly literal: string | null;
  readonly maxResults: number;
  readonly maxFileBytes: number;
  /** Matched lines longer than this are shown as a window around the match. */
  readonly maxLineChars: number;
  /** Workers are terminated after this many milliseconds. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/** What a search found: the first `maxResults` matched lines in file order, and counts per file. */
export interface SearchOutcome {
  readonly matches: { readonly path: string; readonly line: number; readonly text: string }[];
  /** Matched lines per file, in file order, for files with at least one. */
  readonly counts: { readonly path: string; readonly count: number }[];
  /** Files skipped for being over `maxFileBytes`. */
  readonly tooLarge: string[];
  readonly binaryCount: number;
}

/** Why a search stopped early: the time budget ran out, or the caller aborted. */
export class SearchStoppedError extends Error {
  constructor(readonly reason: 'timeout' | 'aborted') {
    super(reason);
  }
}

interface WorkerReport {
  matches: [number, number, string][];
  counts: [number, number][];
  tooLarge: number[];
  binary: number;
}

/**
 * Searches files in worker threads (one per core, at most 4), so a catastrophic regex
 * cannot block the event loop: when the time budget passes or the signal aborts, every
 * worker is terminated and the promise rejects with {@link SearchStoppedError}.
 */
export async function runSearch(options: RunSearchOptions): Promise<SearchOutcome> {
  const workerCount = Math.max(1, Math.min(availableParallelism(), 4));
  const { files: _files, signal: _signal, ...settings } = options;
  const workers = Array.from(
    { length: workerCount },
    () => new Worker(searchWorkerSource, { eval: true, execArgv: [], workerData: settings }),
  );
  const stopAll = (): void => void workers.forEach((worker) => void worker.terminate());
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SearchStoppedError('timeout')), options.timeoutMs);
    onAbort = () => reject(new SearchStoppedError('aborted'));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const reports = workers.map(
    (worker) =>
      new Promise<WorkerReport>((resolve, reject) => {
        worker.once('message', (report: WorkerReport) => resolve(report));
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`search worker exited with code ${code}`)));
      }),
  );
  const all = Promise.all(reports);
  // Terminated workers reject late; nobody waits for them any more.
  all.catch(() => undefined);
  stopped.catch(() => undefined);
  try {
    const files = await Promise.race([options.files, stopped]);
    // Interleave so each worker gets a mix of directories (big files cluster).
    workers.forEach((worker, workerIndex) => {
      const share: [number, string][] = [];
      for (let index = workerIndex; index < files.length; index += workerCount)
        share.push([index, files[index] ?? '']);
      worker.postMessage(share);
    });
    const results = await Promise.race([all, stopped]);
    return merge(results, files, options.maxResults);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) options.signal?.removeEventListener('abort', onAbort);
    stopAll();
  }
}

function merge(
  reports: readonly WorkerReport[],
  files: readonly string[],
  maxResults: number,
): SearchOutcome {
  const pathOf = (index: number): string => files[index] ?? '';
  const matches = reports
    .flatMap((report) => report.matches)
    .sort((left, right) => left[0] - right[0] || left[1] - right[1])
    .slice(0, maxResults)
    .map(([file, line, text]) => ({ path: pathOf(file), line, text }));
  const counts = reports
    .flatMap((report) => report.counts)
    .sort((left, right) => left[0] - right[0])
    .map(([file, count]) => ({ path: pathOf(file), count }));
  const tooLarge = reports.flatMap((report) => report.tooLarge).sort((left, right) => left - right);
  const binaryCount = reports.reduce((sum, report) => sum + report.binary, 0);
  return { matches, counts, tooLarge: tooLarge.map(pathOf), binaryCount };
}
