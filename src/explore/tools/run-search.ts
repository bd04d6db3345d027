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
  /** Printable ASCII strings every match contains (case-folded with `i`): files without them are skipped unread as text. */
  readonly literals: readonly string[];
  /** Whether matching may run on a Latin-1 view of a non-ASCII file (no UTF-8 decode). */
  readonly latin1Safety: Latin1Safety;
  /**
   * Indexes into `files` of the only files that can match (found by ripgrep); the others are
   * only checked against `maxFileBytes`. @default every file
   */
  readonly candidates?: ReadonlySet<number> | undefined;
  readonly maxResults: number;
  readonly maxFileBytes: number;
  /** Matched lines longer than this are shown as a window around the match. */
  readonly maxLineChars: number;
  /** The search stops, its workers terminated, after this many milliseconds. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * `always`: the regex only ever matches ASCII, so a Latin-1 view of the bytes matches the same;
 * `unless-unicode-spaces`: the same for files without non-ASCII spaces or line separators.
 */
export type Latin1Safety = 'always' | 'unless-unicode-spaces' | 'never';

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
  id: number;
  matches: [number, number, string][];
  counts: [number, number][];
  tooLarge: number[];
  binary: number;
  error?: string;
}

/** Workers per search: one per core, at most 4 (reading and matching are CPU-bound once cached). */
const workerCount = Math.max(1, Math.min(availableParallelism(), 4));
/** Idle workers are terminated after this long; until then they keep a warm JIT for the next search. */
const idleMs = 30_000;
/** Workers waiting for the next search, unref'd so they never keep the process alive. */
const idle: Worker[] = [];
let idleTimer: NodeJS.Timeout | undefined;
let nextJobId = 0;

/**
 * Searches files in worker threads taken from a small long-lived pool, so a catastrophic
 * regex cannot block the event loop: when the time budget passes or the signal aborts, this
 * search's workers are terminated (the pool spawns fresh ones next time) and the promise
 * rejects with {@link SearchStoppedError}.
 */
export async function runSearch(options: RunSearchOptions): Promise<SearchOutcome> {
  // Before taking workers: an abort must not cost the pool its warm ones.
  if (options.signal?.aborted) {
    Promise.resolve(options.files).catch(() => undefined);
    throw new SearchStoppedError('aborted');
  }
  const workers = checkOut(workerCount);
  let succeeded = false;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SearchStoppedError('timeout')), options.timeoutMs);
    onAbort = () => reject(new SearchStoppedError('aborted'));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  stopped.catch(() => undefined);
  try {
    const files = await Promise.race([options.files, stopped]);
    const id = (nextJobId += 1);
    const used = workers.slice(0, Math.max(1, Math.min(workers.length, files.length)));
    // Interleave so each worker gets a mix of directories (big files cluster).
    const all = Promise.all(
      used.map((worker, first) => {
        const share: string[] = [];
        const candidates: boolean[] | null = options.candidates === undefined ? null : [];
        for (let index = first; index < files.length; index += used.length) {
          share.push(files[index] ?? '');
          candidates?.push(options.candidates?.has(index) === true);
        }
        return ask(worker, {
          id,
          root: options.root,
          source: options.source,
          flags: options.flags,
          literals: options.literals,
          latin1Safety: options.latin1Safety,
          maxResults: options.maxResults,
          maxFileBytes: options.maxFileBytes,
          maxLineChars: options.maxLineChars,
          files: share,
          candidates,
          first,
          stride: used.length,
        });
      }),
    );
    // Terminated workers reject late; nobody waits for them any more.
    all.catch(() => undefined);
    const results = await Promise.race([all, stopped]);
    succeeded = true;
    return merge(results, files, options.maxResults);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) options.signal?.removeEventListener('abort', onAbort);
    if (succeeded) checkIn(workers);
    else for (const worker of workers) void worker.terminate();
  }
}

function spawnWorker(): Worker {
  const worker = new Worker(searchWorkerSource, { eval: true, execArgv: [] });
  // A worker that dies while idle must not crash the process or be handed out again.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    const index = idle.indexOf(worker);
    if (index !== -1) idle.splice(index, 1);
  });
  return worker;
}

function checkOut(count: number): Worker[] {
  clearTimeout(idleTimer);
  const workers = idle.splice(0, count);
  while (workers.length < count) workers.push(spawnWorker());
  for (const worker of workers) worker.ref();
  return workers;
}

function checkIn(workers: readonly Worker[]): void {
  for (const worker of workers) {
    if (idle.length < workerCount) {
      worker.unref();
      idle.push(worker);
    } else void worker.terminate();
  }
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    for (const worker of idle.splice(0)) void worker.terminate();
  }, idleMs);
  idleTimer.unref();
}

function ask(worker: Worker, job: { readonly id: number } & Record<string, unknown>): Promise<WorkerReport> {
  return new Promise<WorkerReport>((resolve, reject) => {
    const onMessage = (report: WorkerReport): void => {
      if (report.id !== job.id) return;
      cleanup();
      if (report.error === undefined) resolve(report);
      else reject(new Error(`search worker failed: ${report.error}`));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onExit = (code: number): void => {
      cleanup();
      reject(new Error(`search worker exited with code ${code}`));
    };
    const cleanup = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job);
  });
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
