import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ExplorationOrchestrator } from '../../src/flows/exploration/exploration-orchestrator.js';
import { defaultFlowContextWindowTokens } from '../../src/flows/shared/flow-context-window.js';
import type { ModelAdapter } from '../../src/model/model-adapter.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { expectValidTranscript, textContent } from '../support/transcript.js';

const axiosRoot = fileURLToPath(new URL('../../node_modules/axios', import.meta.url));
/** Every .js file under lib/, by its path from the package root. */
const files = readdirSync(`${axiosRoot}/lib`, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.js'))
  .map((file) => `lib/${file}`)
  .sort();

/** A 50-step exploration that reads a 400-line window of a different file each step, then ends. */
function fiftyReads(contextWindowTokens: number | undefined): {
  adapter: ModelAdapter;
  scripted: ScriptedAdapter;
} {
  const steps = Array.from({ length: 49 }, (_, index) =>
    ScriptedAdapter.toolCalls([
      ['read_file', { path: files[index % files.length]!, start_line: 1, end_line: 400 }],
    ]),
  );
  const scripted = new ScriptedAdapter([
    ...steps,
    ScriptedAdapter.toolCalls([['finish_exploration', { summary: 'Read the library.' }]]),
  ]);
  const adapter: ModelAdapter = {
    provider: 'scripted',
    ...(contextWindowTokens === undefined ? {} : { contextWindowTokens }),
    call: (messages, tools, options) => scripted.call(messages, tools, options),
  };
  return { adapter, scripted };
}

describe('ExplorationOrchestrator turns contextWindow on by default', () => {
  it("keeps a 50-step exploration of 400-line reads under the adapter's window, the memory complete", async () => {
    expect(files.length).toBeGreaterThan(30);
    const { adapter, scripted } = fiftyReads(32_768);
    const events: TraceEvent[] = [];
    const explorer = new ExplorationOrchestrator({
      repoRoot: axiosRoot,
      adapter,
      traceEmitter: (event) => void events.push(event),
    });
    await explorer.run('Read the library');
    expect(explorer.explorationComplete).toBe(true);
    expect(scripted.calls).toHaveLength(50);
    const sizes = events.flatMap((event) => (event.type === 'llm_call' ? [event.data.contextTokens!] : []));
    expect(sizes).toHaveLength(50);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(32_768 - 8192);
    expect(events.filter((event) => event.type === 'context_compacted').length).toBeGreaterThan(0);
    for (const call of scripted.calls) expectValidTranscript(call.messages);
    const elided = scripted.calls
      .at(-1)!
      .messages.filter(
        (message) => message.role === 'tool' && textContent(message.content).startsWith('[Elided'),
      );
    expect(elided.length).toBeGreaterThan(0);
    // The memory keeps every read in full.
    expect(
      explorer.memory.filter(
        (message) => message.role === 'tool' && textContent(message.content).startsWith('[Elided'),
      ),
    ).toEqual([]);
  });

  it(`assumes ${defaultFlowContextWindowTokens} tokens when the adapter knows no window, and can be turned off`, async () => {
    const unknown = fiftyReads(undefined);
    const events: TraceEvent[] = [];
    await new ExplorationOrchestrator({
      repoRoot: axiosRoot,
      adapter: unknown.adapter,
      traceEmitter: (event) => void events.push(event),
    }).run('Read');
    const compacted = events.filter((event) => event.type === 'context_compacted');
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted[0]!.type === 'context_compacted' && compacted[0]!.data.limit).toBe(
      defaultFlowContextWindowTokens - 8192,
    );

    const off = fiftyReads(32_768);
    const offEvents: TraceEvent[] = [];
    await new ExplorationOrchestrator({
      repoRoot: axiosRoot,
      adapter: off.adapter,
      contextWindow: false,
      traceEmitter: (event) => void offEvents.push(event),
    }).run('Read');
    expect(offEvents.some((event) => event.type === 'context_compacted')).toBe(false);
    expect(
      off.scripted.calls
        .at(-1)!
        .messages.some(
          (message) => message.role === 'tool' && textContent(message.content).startsWith('[Elided'),
        ),
    ).toBe(false);
  });
});
