/**
 * One library, one scenario, in a fresh process: verify, warm up, time, then measure retained heap and
 * allocation. Prints one JSON line (a `LoopChildResult`) on stdout.
 */
import { collectGarbage, mean, measureAllocation, usedHeap } from '../measure.js';
import { baselineLibrary, loopLibraryLoaders } from './libraries/index.js';
import { oursAt } from './libraries/ours.js';
import { Script, buildScenario } from './scenarios.js';
import type { ScenarioName } from './scenarios.js';
import { verifiedRun } from './verified-run.js';

export interface LoopChildOptions {
  readonly library: string;
  /** For the library `baseline`: the built checkout measured (`--baseline`). */
  readonly packageRoot?: string;
  /** Measured one after the other in this process (the quick mode); one scenario per process otherwise. */
  readonly scenarios: readonly ScenarioName[];
  readonly warmupMs: number;
  readonly minWarmupRuns: number;
  readonly timedMs: number;
  readonly minTimedRuns: number;
  readonly allocationRuns: number;
}

export interface LoopChildResult {
  readonly library: string;
  readonly scenario: ScenarioName;
  readonly ok: boolean;
  /** Why the library gets no number. */
  readonly failure?: string;
  readonly timedRuns?: number;
  readonly microsecondsPerRun?: number;
  readonly microsecondsPerTurn?: number;
  readonly microsecondsPerCall?: number;
  /** Mean time between model calls over turns 1-20 and over the last 20 (turn = model call to model call). */
  readonly earlyTurnMicroseconds?: number;
  readonly lateTurnMicroseconds?: number;
  readonly bytesAllocatedPerRun?: number;
  /** Heap growth over all timed runs, after full GCs, from a baseline taken after warm-up. */
  readonly retainedBytes?: number;
}

const edgeTurns = 20;

async function measure(
  options: Omit<LoopChildOptions, 'scenarios'>,
  scenarioName: ScenarioName,
): Promise<LoopChildResult> {
  const library =
    options.library === baselineLibrary && options.packageRoot !== undefined
      ? oursAt(options.packageRoot)
      : await (loopLibraryLoaders[options.library] ?? (() => Promise.reject(new Error('unknown library'))))();
  const base = { library: options.library, scenario: scenarioName };
  const probeScript = new Script(buildScenario('probe'));
  const script = new Script(buildScenario(scenarioName));
  try {
    await verifiedRun(await library.prepare(probeScript), probeScript);
  } catch (error) {
    return { ...base, ok: false, failure: `invalid-argument probe: ${(error as Error).message}` };
  }
  const run = await library.prepare(script);
  try {
    await verifiedRun(run, script);
    const warmupStart = performance.now();
    for (
      let runs = 0;
      runs < options.minWarmupRuns || performance.now() - warmupStart < options.warmupMs;
      runs++
    ) {
      await verifiedRun(run, script);
    }
    collectGarbage();
    const baseline = usedHeap();
    const durations: number[] = [];
    const turnCount = script.scenario.turns.length;
    const early: number[] = [];
    const late: number[] = [];
    const timedStart = performance.now();
    while (durations.length < options.minTimedRuns || performance.now() - timedStart < options.timedMs) {
      const started = performance.now();
      await verifiedRun(run, script);
      durations.push(performance.now() - started);
      if (turnCount > 2 * edgeTurns) {
        const times = script.callTimes;
        early.push((times[edgeTurns]! - times[0]!) / edgeTurns);
        late.push((times[turnCount - 1]! - times[turnCount - 1 - edgeTurns]!) / edgeTurns);
      }
    }
    collectGarbage();
    const retainedBytes = usedHeap() - baseline;
    const allocation = await measureAllocation(async () => {
      for (let index = 0; index < options.allocationRuns; index++) await verifiedRun(run, script);
    });
    const perRun = mean(durations) * 1000;
    const calls = script.scenario.expectedExecutions;
    return {
      ...base,
      ok: true,
      timedRuns: durations.length,
      microsecondsPerRun: perRun,
      microsecondsPerTurn: perRun / turnCount,
      microsecondsPerCall: perRun / calls,
      ...(early.length === 0
        ? {}
        : { earlyTurnMicroseconds: mean(early) * 1000, lateTurnMicroseconds: mean(late) * 1000 }),
      bytesAllocatedPerRun: allocation.bytes / options.allocationRuns,
      retainedBytes,
    };
  } catch (error) {
    return { ...base, ok: false, failure: (error as Error).message };
  }
}

async function measureAll(options: LoopChildOptions): Promise<LoopChildResult[]> {
  const results: LoopChildResult[] = [];
  for (const scenario of options.scenarios) results.push(await measure(options, scenario));
  return results;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoopChildOptions;
measureAll(options).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  },
);
