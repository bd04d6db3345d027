import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** An operation was cancelled through its AbortSignal. Runs return `stopReason: 'aborted'` instead of throwing this. */
export class AbortedError extends ToolOrchestratorError {
  constructor(options: { readonly message?: string; readonly cause?: unknown } = {}) {
    super('aborted', { message: options.message ?? 'The operation was aborted.', cause: options.cause });
  }
}

/** True when `error` is an abort: a DOM `AbortError`, an `AbortedError`, or the reason of an aborted signal. */
export function isAbortError(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted === true && (error === signal.reason || signal.reason === undefined)) return true;
  try {
    if (error instanceof AbortedError) return true;
    const name = (error as { name?: unknown } | null)?.name;
    return name === 'AbortError' || name === 'APIUserAbortError';
  } catch {
    return false; // A thrown Proxy whose traps throw is no abort.
  }
}
