import { inTimeSlices } from '../../shared/time-slices.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';

/** Asynchronous reads in flight at once, for a sandbox without `readTextSync`. */
const readConcurrency = 64;

/**
 * Reads `paths` through the sandbox and hands each text (`undefined` for an unreadable file) to
 * `found`, in order: synchronously in time slices when the sandbox has `readTextSync` (many small
 * files cost less so than as thread-pool round trips), else asynchronously, a batch at a time.
 */
export async function readTexts(
  sandbox: CodeIndexSandbox,
  paths: readonly string[],
  options: { readonly maxBytes: number; readonly signal?: AbortSignal | undefined },
  found: (path: string, text: string | undefined) => void,
): Promise<void> {
  const limits = { maxBytes: options.maxBytes };
  const readTextSync = sandbox.readTextSync?.bind(sandbox);
  if (readTextSync !== undefined) {
    await inTimeSlices(paths, (path) => found(path, readTextSyncOrUndefined(readTextSync, path, limits)), {
      signal: options.signal,
    });
    return;
  }
  for (let start = 0; start < paths.length; start += readConcurrency) {
    options.signal?.throwIfAborted();
    const batch = paths.slice(start, start + readConcurrency);
    const texts = await Promise.all(
      batch.map((path) =>
        sandbox.readText(path, limits).then(
          (read) => read.text,
          () => undefined,
        ),
      ),
    );
    batch.forEach((path, index) => found(path, texts[index]));
  }
}

function readTextSyncOrUndefined(
  readTextSync: NonNullable<CodeIndexSandbox['readTextSync']>,
  path: string,
  limits: { readonly maxBytes: number },
): string | undefined {
  try {
    return readTextSync(path, limits).text;
  } catch {
    return undefined;
  }
}
