import type { RunView, ToolItem } from './trace-model.js';

/** What placing a run needs to know of it. */
export interface PlaceableRun {
  readonly view: RunView & { parentMissing: boolean; readonly detached: RunView[] };
  /** Its tool calls by id. */
  readonly tools: ReadonlyMap<string, ToolItem>;
  readonly startTimestamp: number;
  /** The parent's spawning call, when the run's events name it. */
  readonly parentToolCallId: string | undefined;
}

/** Hangs subagent runs under their calls; returns the top-level runs in start order. */
export function placeRuns(runs: ReadonlyMap<string, PlaceableRun>): RunView[] {
  const roots: RunView[] = [];
  const childCounts = new Map<ToolItem, number>();
  const ordered = [...runs.values()].sort((a, b) => a.startTimestamp - b.startTimestamp);
  for (const run of ordered) {
    const parentId = run.view.parentRunId;
    const parent = parentId === null ? undefined : runs.get(parentId);
    if (parent === undefined) {
      run.view.parentMissing = parentId !== null;
      roots.push(run.view);
      continue;
    }
    const call =
      (run.parentToolCallId === undefined ? undefined : parent.tools.get(run.parentToolCallId)) ??
      spawningCall(parent, run, childCounts);
    if (call === undefined) parent.view.detached.push(run.view);
    else {
      (call.children as RunView[]).push(run.view);
      childCounts.set(call, (childCounts.get(call) ?? 0) + 1);
    }
  }
  return roots;
}

/** The parent's call whose window overlaps the child run most; ties go to the call with fewer children. */
function spawningCall(
  parent: PlaceableRun,
  child: PlaceableRun,
  childCounts: Map<ToolItem, number>,
): ToolItem | undefined {
  const start = child.view.startMs;
  const end = start + (child.view.durationMs ?? 0);
  let best: ToolItem | undefined;
  let bestOverlap = Number.NEGATIVE_INFINITY;
  for (const call of parent.tools.values()) {
    const callEnd = call.startMs + (call.durationMs ?? Number.POSITIVE_INFINITY);
    // Rebuilt starts can be early by the runner's own overhead: allow a little slack.
    const slack = Math.max(2, 0.02 * (call.durationMs ?? 0));
    if (start < call.startMs - slack || start > callEnd + slack) continue;
    const overlap = Math.min(end, callEnd) - Math.max(start, call.startMs);
    const better =
      best === undefined ||
      overlap > bestOverlap + 1e-9 ||
      (Math.abs(overlap - bestOverlap) <= 1e-9 &&
        (childCounts.get(call) ?? 0) < (childCounts.get(best) ?? 0));
    if (better) {
      best = call;
      bestOverlap = overlap;
    }
  }
  return best;
}
