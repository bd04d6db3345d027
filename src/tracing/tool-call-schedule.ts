/**
 * When each tool call of one turn started, rebuilt from what the events record: the batch starts
 * at the `tool_call` events, ends at the first `tool_result`, and each result has its own
 * `durationMs`. The runner starts calls in order on a pool of workers (one worker unless
 * `toolConcurrency` is higher), so the pool size is the smallest one whose schedule fits in the
 * batch; with that pool the starts follow. Returns offsets in milliseconds from the batch start.
 *
 * Exact for sequential calls and for fully parallel ones; a mixed pool is a close estimate.
 */
export function toolCallStartOffsets(durations: readonly number[], batchMs: number): number[] {
  const count = durations.length;
  if (count === 0) return [];
  // Durations are measured inside the batch, so the right pool's schedule never ends after it; but
  // event timestamps are whole milliseconds, so the batch itself is known to within one.
  const tolerance = 1;
  for (let workers = 1; workers < count; workers++) {
    const starts = listSchedule(durations, workers);
    let end = 0;
    for (let index = 0; index < count; index++) end = Math.max(end, starts[index]! + durations[index]!);
    if (end <= batchMs + tolerance) return starts;
  }
  return new Array<number>(count).fill(0);
}

/** Each call goes, in order, to the worker that is free first: how the runner's pool hands them out. */
function listSchedule(durations: readonly number[], workers: number): number[] {
  const freeAt = new Array<number>(workers).fill(0);
  return durations.map((duration) => {
    let worker = 0;
    for (let index = 1; index < workers; index++) if (freeAt[index]! < freeAt[worker]!) worker = index;
    const start = freeAt[worker]!;
    freeAt[worker] = start + Math.max(0, duration);
    return start;
  });
}
