// Run by retry-waits.test.ts in a child process that the test kills at a deadline: a wait the
// adapter fails to cut short (an hour-long retry-after, an abort that is ignored) then fails the
// test instead of freezing the suite. Prints one JSON line describing how the call settled.
import OpenAI from 'openai';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { ToolOrchestrator } from '../../src/index.js';

/** What the parent asks for, as JSON in argv[2]. */
export interface ChildScenario {
  readonly baseURL: string;
  readonly via: 'call' | 'stream' | 'orchestrator';
  readonly maxRetries: number;
  readonly maxRetryDelayMs?: number;
  /**
   * Aborts the call's signal this many milliseconds after the first response arrived, so the abort
   * lands in the retry wait however slowly a loaded machine got the request out.
   */
  readonly abortAfterMs?: number;
}

/** What the child prints. */
export interface ChildOutcome {
  readonly settled: 'resolved' | 'rejected';
  readonly elapsedMs: number;
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
  readonly retryAfterMs?: number;
  readonly retryAfterSeconds?: number;
  readonly stopReason?: string;
}

const scenario = JSON.parse(process.argv[2] ?? '{}') as ChildScenario;
const controller = new AbortController();
let abortScheduled = false;
const fetchThenScheduleAbort: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (scenario.abortAfterMs !== undefined && !abortScheduled) {
    abortScheduled = true;
    setTimeout(() => controller.abort(), scenario.abortAfterMs);
  }
  return response;
};
const client = new OpenAI({
  apiKey: 'test',
  baseURL: scenario.baseURL,
  maxRetries: 0,
  timeout: 30_000,
  fetch: fetchThenScheduleAbort,
});
const adapter = new OpenAIAdapter({
  model: 'm',
  client,
  maxRetries: scenario.maxRetries,
  ...(scenario.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: scenario.maxRetryDelayMs }),
});
const user = [{ role: 'user' as const, content: 'hi' }];
const signal = controller.signal;

async function run(): Promise<{ stopReason?: string }> {
  if (scenario.via === 'call') {
    await adapter.call(user, [], { signal });
    return {};
  }
  if (scenario.via === 'stream') {
    for await (const _event of adapter.stream(user, [], { signal })) void _event;
    return {};
  }
  const result = await new ToolOrchestrator(adapter, {}, { stream: true }).run(user, undefined, { signal });
  return { stopReason: result.stopReason };
}

const started = Date.now();
let outcome: ChildOutcome;
try {
  const result = await run();
  outcome = { settled: 'resolved', elapsedMs: Date.now() - started, ...result };
} catch (error) {
  const fields = error as Partial<Record<keyof ChildOutcome, unknown>> & Error;
  outcome = {
    settled: 'rejected',
    elapsedMs: Date.now() - started,
    name: fields.name,
    message: fields.message,
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(typeof fields.retryAfterMs === 'number' ? { retryAfterMs: fields.retryAfterMs } : {}),
    ...(typeof fields.retryAfterSeconds === 'number' ? { retryAfterSeconds: fields.retryAfterSeconds } : {}),
  };
}
// No process.exit: a timer left behind (a sleep nobody can abort) keeps the child alive, and the
// parent, which kills it at a deadline, fails the test.
console.log(JSON.stringify(outcome));
