import { describe, expect, it } from 'vitest';
import { inTimeSlices } from '../../src/shared/time-slices.js';

function busy(milliseconds: number): void {
  const until = performance.now() + milliseconds;
  while (performance.now() < until) {
    // spin: synchronous work, as a stat or a read is
  }
}

describe('inTimeSlices', () => {
  it('calls the work on every item in order, and lets other work run between slices', async () => {
    const seen: number[] = [];
    let timerRanAfter: number | undefined;
    setTimeout(() => (timerRanAfter = seen.length), 0);
    await inTimeSlices(
      Array.from({ length: 20 }, (_, index) => index),
      (item, index) => {
        expect(index).toBe(item);
        seen.push(item);
        busy(2);
      },
      { sliceMs: 5 },
    );
    expect(seen).toEqual(Array.from({ length: 20 }, (_, index) => index));
    // The timer ran after the first slice, not after the last item.
    expect(timerRanAfter).toBeGreaterThan(0);
    expect(timerRanAfter).toBeLessThan(20);
  });

  it('stops with the abort reason once the signal is aborted', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const run = inTimeSlices(
      [1, 2, 3, 4, 5],
      (item) => {
        seen.push(item);
        if (item === 2) controller.abort(new Error('stopped at 2'));
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toThrow('stopped at 2');
    expect(seen).toEqual([1, 2]);
  });
});
