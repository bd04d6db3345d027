/**
 * The run API's cost, side by side in one process: ours through `run()` with the loop guard off,
 * with the defaults (guard on), with the guard and every budget limit on, and through `stream()`
 * with a consumer that reads every event, with and without them. The variants alternate run by
 * run (the order rotating each cycle), so load on the machine hits them alike; each cycle's run
 * times give paired ratios. Prints one JSON line (a `RunApiChildResult`).
 */
import { median, mean } from '../measure.js';
import { prepareOurs } from './libraries/ours.js';
import type { OursVariant } from './libraries/ours.js';
import { Script, buildScenario } from './scenarios.js';
import type { PreparedRun, ScenarioName } from './scenarios.js';
import { verifiedRun } from './verified-run.js';

export interface RunApiChildOptions {
  readonly scenario: ScenarioName;
  readonly warmupMs: number;
  readonly timedMs: number;
  /** At least this many cycles (each runs every variant once). */
  readonly minCycles: number;
}

export interface RunApiVariantResult {
  readonly variant: string;
  /** Median run time over the cycles, per model turn. */
  readonly microsecondsPerTurn: number;
  /** Median over cycles of this variant's run time over the `run()` defaults run of the same cycle. */
  readonly ratioToRun: number;
  /** The same against `run()` with the loop guard off: the loop without any of the new checks. */
  readonly ratioToRunWithoutGuard: number;
  /** Mean time between model calls over turns 1-20 and over the last 20 (S3 only). */
  readonly earlyTurnMicroseconds?: number;
  readonly lateTurnMicroseconds?: number;
}

export interface RunApiChildResult {
  readonly scenario: ScenarioName;
  readonly ok: boolean;
  readonly failure?: string;
  readonly cycles?: number;
  readonly variants?: RunApiVariantResult[];
}

/** Every limit on, none reached: the checks run before every model call and every tool call. */
const budget = {
  maxTotalTokens: 1e12,
  maxToolCalls: 1e9,
  maxDurationMs: 1e9,
  maxCostUsd: 1e9,
  pricing: { inputPerMillion: 0.27, outputPerMillion: 1.1, cachedInputPerMillion: 0.07 },
};

const runApiVariants: Readonly<Record<string, OursVariant>> = {
  'run(), loopGuard off': { via: 'run', options: { loopGuard: false } },
  'run() (defaults: loopGuard on)': { via: 'run' },
  'run(), loopGuard + budget': { via: 'run', options: { budget } },
  'stream() + consumer': { via: 'stream' },
  'stream() + consumer, loopGuard + budget': { via: 'stream', options: { budget } },
  // Issue #18: token accounting alone (a window no run reaches), and accounting with masking (S3
  // passes a 32k window after about 40 turns and masks in steps from then on).
  'run(), contextWindow 1M (accounting)': {
    via: 'run',
    options: { contextWindow: { maxTokens: 1_000_000 } },
  },
  'run(), contextWindow 32k (masking)': { via: 'run', options: { contextWindow: { maxTokens: 32_768 } } },
  // A typed output (`output`) on the same run: native structured output, and the final-answer tool.
  'run(), output (native)': { via: 'run', output: 'native' },
  'run(), output (final-answer tool)': { via: 'run', output: 'tool' },
  // Every tool call through an agent tool: a nested run of two zero-latency model calls per call.
  'run(), each call through a child agent': { via: 'run', childAgent: true },
};

const baseline = 'run() (defaults: loopGuard on)';
const withoutGuard = 'run(), loopGuard off';
const edgeTurns = 20;

interface Contender {
  readonly name: string;
  readonly script: Script;
  readonly run: PreparedRun;
  readonly durations: number[];
  readonly early: number[];
  readonly late: number[];
}

async function measure(options: RunApiChildOptions): Promise<RunApiChildResult> {
  const contenders: Contender[] = [];
  for (const [name, variant] of Object.entries(runApiVariants)) {
    const script = new Script(buildScenario(options.scenario));
    contenders.push({
      name,
      script,
      run: await prepareOurs(script, variant),
      durations: [],
      early: [],
      late: [],
    });
  }
  const turnCount = contenders[0]!.script.scenario.turns.length;
  try {
    const warmupStart = performance.now();
    while (performance.now() - warmupStart < options.warmupMs) {
      for (const contender of contenders) await verifiedRun(contender.run, contender.script);
    }
    let cycles = 0;
    const timedStart = performance.now();
    while (cycles < options.minCycles || performance.now() - timedStart < options.timedMs) {
      for (let offset = 0; offset < contenders.length; offset++) {
        const contender = contenders[(cycles + offset) % contenders.length]!;
        const started = performance.now();
        await verifiedRun(contender.run, contender.script);
        contender.durations.push(performance.now() - started);
        if (turnCount > 2 * edgeTurns) {
          const times = contender.script.callTimes;
          contender.early.push((times[edgeTurns]! - times[0]!) / edgeTurns);
          contender.late.push((times[turnCount - 1]! - times[turnCount - 1 - edgeTurns]!) / edgeTurns);
        }
      }
      cycles++;
    }
    const byName = new Map(contenders.map((contender) => [contender.name, contender]));
    const pairedRatio = (contender: Contender, reference: Contender): number =>
      median(contender.durations.map((duration, cycle) => duration / reference.durations[cycle]!));
    return {
      scenario: options.scenario,
      ok: true,
      cycles,
      variants: contenders.map((contender) => ({
        variant: contender.name,
        microsecondsPerTurn: (median(contender.durations) * 1000) / turnCount,
        ratioToRun: pairedRatio(contender, byName.get(baseline)!),
        ratioToRunWithoutGuard: pairedRatio(contender, byName.get(withoutGuard)!),
        ...(contender.early.length === 0
          ? {}
          : {
              earlyTurnMicroseconds: mean(contender.early) * 1000,
              lateTurnMicroseconds: mean(contender.late) * 1000,
            }),
      })),
    };
  } catch (error) {
    return { scenario: options.scenario, ok: false, failure: (error as Error).message };
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as RunApiChildOptions;
measure(options).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  },
);
