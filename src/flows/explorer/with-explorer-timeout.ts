import { isAbortError } from '../../errors/aborted-error.js';
import { ExplorerTimeoutError } from '../errors/explorer-timeout-error.js';

/** What {@link withExplorerTimeout} takes. */
export interface ExplorerTimeoutOptions {
  /** Milliseconds before `work`'s signal is aborted; 0 means no limit. */
  readonly timeoutMs: number;
  /** The explorer's question, named in the error. */
  readonly question: string;
  /** The caller's signal, joined to the time limit's. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs `work` with a signal that aborts when `timeoutMs` passes (or the caller's signal does),
 * and turns the time limit's abort into an {@link ExplorerTimeoutError}.
 *
 * @throws {ExplorerTimeoutError} when the time limit passes before `work` settles.
 */
export async function withExplorerTimeout<Value>(
  options: ExplorerTimeoutOptions,
  work: (signal: AbortSignal) => Promise<Value>,
): Promise<Value> {
  const timeout = new AbortController();
  const timer = options.timeoutMs > 0 ? setTimeout(() => timeout.abort(), options.timeoutMs) : undefined;
  const signal =
    options.signal === undefined ? timeout.signal : AbortSignal.any([options.signal, timeout.signal]);
  const timedOut = () =>
    new ExplorerTimeoutError({ timeoutMs: options.timeoutMs, question: options.question });
  try {
    const value = await work(signal);
    if (timeout.signal.aborted) throw timedOut();
    return value;
  } catch (error) {
    if (timeout.signal.aborted && !(error instanceof ExplorerTimeoutError) && isAbortError(error, signal))
      throw timedOut();
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
