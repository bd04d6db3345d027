import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, TraceEvent } from '../../../src/index.js';
import { runScriptInChild } from '../../support/run-in-child.js';
import { expectPairedToolEvents, expectValidTranscript } from '../../support/transcript.js';

const source = (relative: string) =>
  pathToFileURL(new URL(`../../../src/${relative}`, import.meta.url).pathname).href;

/** Each guardrail kind never settles and ignores its signal; each run is aborted 50 ms in. */
const script = `
import { ToolOrchestrator, defineTool } from '${source('index.ts')}';
import { ScriptedAdapter } from '${source('testing/index.ts')}';

const never = { name: 'never', check: () => new Promise(() => {}) };
const read = defineTool({ name: 'read', description: 'Read', parameters: { type: 'object', properties: {} }, execute: () => 'text' });
const script = () => [ScriptedAdapter.toolCalls([['read', {}, 'c1']]), ScriptedAdapter.text('done')];
const scenarios = [
  ['input', { input: [never] }, [ScriptedAdapter.text('done')]],
  ['input beside the call', { input: [{ ...never, runInParallel: true }] }, [ScriptedAdapter.text('done')]],
  ['output', { output: [never] }, [ScriptedAdapter.text('done')]],
  ['tool input', { toolInput: [never] }, script()],
  ['tool output', { toolOutput: [never] }, script()],
];
for (const [name, guardrails, responses] of scenarios) {
  const orchestrator = new ToolOrchestrator(new ScriptedAdapter(responses), { read }, { guardrails });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const started = Date.now();
  const result = await orchestrator.run([{ role: 'user', content: 'go' }], undefined, { signal: controller.signal });
  console.log(JSON.stringify({ name, settleMs: Date.now() - started, stopReason: result.stopReason, messages: result.messages, traces: result.traces }));
}
`;

interface Report {
  readonly name: string;
  readonly settleMs: number;
  readonly stopReason: string;
  readonly messages: ChatMessage[];
  readonly traces: TraceEvent[];
}

describe('a guardrail that never settles', () => {
  it('does not keep an aborted run waiting, whatever its kind', async () => {
    const outcome = await runScriptInChild(script, { deadlineMs: 30_000 });
    expect(outcome.timedOut, outcome.stderr).toBe(false);
    expect(outcome.stderr).toBe('');
    const reports = outcome.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Report);

    expect(reports.map((report) => [report.name, report.stopReason])).toEqual([
      ['input', 'aborted'],
      ['input beside the call', 'aborted'],
      ['output', 'aborted'],
      ['tool input', 'aborted'],
      ['tool output', 'aborted'],
    ]);
    for (const report of reports) {
      // Aborted at 50 ms; the bound is generous for a loaded machine.
      expect(report.settleMs, report.name).toBeLessThan(2_000);
      expectValidTranscript(report.messages);
      expectPairedToolEvents(report.traces);
    }
  }, 40_000);
});
