import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, TraceEvent } from '../../src/index.js';
import { expectPairedToolEvents, expectValidTranscript } from '../support/transcript.js';

const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/abort-ignoring-adapters.ts', import.meta.url));
/** The child is killed here whatever it does, so a run left pending can never hold up the suite. */
const childDeadlineMs = 30_000;

interface ScenarioReport {
  readonly name: string;
  readonly settled: boolean;
  readonly settleMs?: number;
  readonly stopReason?: string;
  readonly error?: string;
  readonly messages?: ChatMessage[];
  readonly traces?: TraceEvent[];
}

function runChild(): Promise<ScenarioReport[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [tsx, fixture],
      { timeout: childDeadlineMs, killSignal: 'SIGKILL', maxBuffer: 10 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const reports = stdout
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as ScenarioReport);
        if (error && reports.length < 4) reject(new Error(`child failed: ${error.message}\n${stderr}`));
        else resolve(reports);
      },
    );
  });
}

describe('abort with an adapter that ignores the signal', () => {
  it('settles run() soon after the abort, for call and stream, with a valid transcript', async () => {
    const reports = await runChild();
    expect(reports.map((report) => [report.name, report.settled, report.error])).toEqual([
      ['call never settles', true, undefined],
      ['call answers long after the abort', true, undefined],
      ['stream never yields', true, undefined],
      ['stream stalls after deltas', true, undefined],
    ]);
    for (const report of reports) {
      // The bound is generous for a loaded machine; the adapters hang forever or for 1 s.
      expect(report.settleMs, report.name).toBeLessThan(500);
      expect(report.stopReason, report.name).toBe('aborted');
      expectValidTranscript(report.messages!);
      expect(report.messages!.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      expectPairedToolEvents(report.traces!);
      expect(report.traces!.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'aborted' } });
      expect(report.traces!.filter((event) => event.type === 'llm_call')).toHaveLength(1);
    }
  }, 40_000);
});
