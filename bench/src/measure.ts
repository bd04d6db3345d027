import { GCProfiler, getHeapStatistics } from 'node:v8';

/** `globalThis.gc`, present because every child runs with `--expose-gc`. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('Run the benchmark child with node --expose-gc.');
  gc();
  gc();
}

export function usedHeap(): number {
  return getHeapStatistics().used_heap_size;
}

/**
 * Bytes allocated by `work`, for Node 20 (which has no `total_allocated_bytes`): the growth of the used
 * heap, plus what every GC during `work` freed, as V8's `GCProfiler` reports it (used heap before minus
 * after each GC). What survives is counted once; what is freed is counted when it is freed.
 */
export async function measureAllocation(
  work: () => Promise<void>,
): Promise<{ bytes: number; gcCount: number }> {
  collectGarbage();
  const profiler = new GCProfiler();
  profiler.start();
  const before = usedHeap();
  await work();
  const after = usedHeap();
  const profile = profiler.stop();
  let freed = 0;
  for (const entry of profile?.statistics ?? []) {
    freed += entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize;
  }
  return { bytes: after - before + freed, gcCount: profile?.statistics.length ?? 0 };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The nearest-rank percentile (`fraction` in 0..1). */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}
