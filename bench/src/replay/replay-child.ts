/**
 * What answering from a cassette costs per model call, against `ScriptedAdapter` answering the same
 * conversation: a 49-turn conversation of three tool calls a turn (the loop suite's S1 shape) is
 * recorded with `recordModel`, then each adapter answers its 49 requests in turn, the variants
 * alternating pass by pass (the order rotating) so load on the machine hits them alike. Prints one
 * JSON line (a `ReplayChildResult`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage, ModelAdapter, ModelResponse, ModelToolDefinition } from 'tool-orchestrator';
import { ReplayAdapter, parseCassette, recordModel } from 'tool-orchestrator/replay';
import type { Cassette } from 'tool-orchestrator/replay';
import { ScriptedAdapter } from 'tool-orchestrator/testing';
import { median } from '../measure.js';

export interface ReplayChildOptions {
  readonly warmupMs: number;
  readonly timedMs: number;
  readonly minCycles: number;
}

export interface ReplayVariantResult {
  readonly variant: string;
  /** Median over cycles of the time per call. */
  readonly microsecondsPerCall: number;
  /** Median over cycles of this variant's time over `ScriptedAdapter`'s in the same cycle. */
  readonly ratioToScripted: number;
}

export interface ReplayChildResult {
  readonly ok: boolean;
  readonly failure?: string;
  readonly cycles?: number;
  readonly variants?: ReplayVariantResult[];
}

const turns = 49;
const tools: ModelToolDefinition[] = ['add', 'page'].map((name) => ({
  type: 'function',
  function: {
    name,
    description: `The ${name} tool`,
    parameters: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] },
  },
}));

/** The model's answers, and the requests the loop would send before each. */
function conversation(): { responses: ModelResponse[]; requests: ChatMessage[][] } {
  const responses: ModelResponse[] = [];
  const requests: ChatMessage[][] = [];
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You add numbers with the tools.' },
    { role: 'user', content: 'Add up the pages.' },
  ];
  for (let turn = 0; turn < turns; turn++) {
    requests.push(messages.slice());
    const last = turn === turns - 1;
    const response: ModelResponse = last
      ? { content: 'The total is 42.', finish_reason: 'stop' }
      : {
          content: null,
          finish_reason: 'tool_calls',
          tool_calls: [0, 1, 2].map((index) => ({
            id: `call_${turn}_${index}`,
            type: 'function' as const,
            function: {
              name: index === 2 ? 'page' : 'add',
              arguments: JSON.stringify({ value: turn + index }),
            },
          })),
        };
    responses.push(response);
    if (last) break;
    messages.push({ role: 'assistant', content: null, tool_calls: response.tool_calls! });
    for (const toolCall of response.tool_calls!) {
      messages.push({
        role: 'tool',
        tool_call_id: toolCall.id,
        content: `${'x'.repeat(180)} ${toolCall.id}`,
      });
    }
  }
  return { responses, requests };
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as ReplayChildOptions;
  const { responses, requests } = conversation();
  const folder = await mkdtemp(join(tmpdir(), 'bench-replay-'));
  try {
    const path = join(folder, 'cassette.jsonl');
    const recorder = recordModel(new ScriptedAdapter(responses), { path, environment: {} });
    for (const messages of requests) await recorder.call(messages, tools);
    const cassette: Cassette = parseCassette(await readFile(path, 'utf8'));
    const variants: Record<string, () => ModelAdapter> = {
      ScriptedAdapter: () => new ScriptedAdapter(responses),
      "ReplayAdapter, match 'strict'": () => new ReplayAdapter({ cassette }),
      "ReplayAdapter, match 'sequence'": () => new ReplayAdapter({ cassette, match: 'sequence' }),
    };
    const names = Object.keys(variants);
    const pass = async (name: string): Promise<number> => {
      const adapter = variants[name]!();
      const started = performance.now();
      for (const messages of requests) await adapter.call(messages, tools);
      return (performance.now() - started) / requests.length;
    };
    const warmupEnd = performance.now() + options.warmupMs;
    while (performance.now() < warmupEnd) for (const name of names) await pass(name);
    const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    const ratios: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    const timedEnd = performance.now() + options.timedMs;
    let cycles = 0;
    while (performance.now() < timedEnd || cycles < options.minCycles) {
      const cycle: Record<string, number> = {};
      for (let offset = 0; offset < names.length; offset++) {
        const name = names[(cycles + offset) % names.length]!;
        cycle[name] = await pass(name);
      }
      for (const name of names) {
        times[name]!.push(cycle[name]!);
        ratios[name]!.push(cycle[name]! / cycle['ScriptedAdapter']!);
      }
      cycles++;
    }
    const result: ReplayChildResult = {
      ok: true,
      cycles,
      variants: names.map((variant) => ({
        variant,
        microsecondsPerCall: median(times[variant]!) * 1000,
        ratioToScripted: median(ratios[variant]!),
      })),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ ok: false, failure: String(error) })}\n`);
});
