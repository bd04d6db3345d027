import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, TraceEvent } from '../../../src/index.js';
import { runScriptInChild } from '../../support/run-in-child.js';
import { expectPairedToolEvents, expectValidTranscript } from '../../support/transcript.js';

const source = (relative: string) =>
  pathToFileURL(new URL(`../../../src/${relative}`, import.meta.url).pathname).href;

/** An inputFilter that never settles; the run is aborted 50 ms in. */
const script = `
import { ToolOrchestrator, handoff } from '${source('index.ts')}';
import { ScriptedAdapter } from '${source('testing/index.ts')}';

const billing = new ToolOrchestrator(new ScriptedAdapter([ScriptedAdapter.text('Paid.')]), {}, { name: 'billing' });
const triage = new ToolOrchestrator(
  new ScriptedAdapter([ScriptedAdapter.toolCalls([['transfer_to_billing', {}, 'to_billing']])]),
  {},
  { name: 'triage', handoffs: [handoff(billing, { inputFilter: () => new Promise(() => {}) })] },
);
const controller = new AbortController();
setTimeout(() => controller.abort(), 50);
const started = Date.now();
const result = await triage.run([{ role: 'user', content: 'go' }], undefined, { signal: controller.signal });
console.log(JSON.stringify({ settleMs: Date.now() - started, stopReason: result.stopReason, agent: result.agent, messages: result.messages, traces: result.traces }));
`;

interface Report {
  readonly settleMs: number;
  readonly stopReason: string;
  readonly agent: string;
  readonly messages: ChatMessage[];
  readonly traces: TraceEvent[];
}

describe('an inputFilter that never settles', () => {
  it('does not keep an aborted run waiting: the run ends with the agent that handed off', async () => {
    const outcome = await runScriptInChild(script, { deadlineMs: 30_000 });
    expect(outcome.timedOut, outcome.stderr).toBe(false);
    expect(outcome.stderr).toBe('');
    const report = JSON.parse(outcome.stdout.trim()) as Report;

    expect(report.stopReason).toBe('aborted');
    expect(report.agent).toBe('triage');
    // Aborted at 50 ms; the bound is generous for a loaded machine.
    expect(report.settleMs).toBeLessThan(2_000);
    expect(report.traces.some((event) => event.type === 'handoff')).toBe(false);
    expectValidTranscript(report.messages);
    expectPairedToolEvents(report.traces);
  }, 40_000);
});
