import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/index.js';

const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/resume-odd-summary.ts', import.meta.url));
/** The child is killed here whatever it does, so a run that never ends cannot hold up the suite. */
const childDeadlineMs = 15_000;

function runChild(): Promise<{ lines: string[]; error: string | undefined }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsx, fixture],
      { timeout: childDeadlineMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        resolve({
          lines: stdout.split('\n').filter((line) => line.trim() !== ''),
          error: error === null ? undefined : `${error.message}\n${stderr}`,
        });
      },
    );
  });
}

describe('contextWindow: resuming a checkpoint whose summary stands for no messages', () => {
  it('ignores the summary and sends the transcript, instead of never ending', async () => {
    const { lines, error } = await runChild();
    expect(error).toBeUndefined();
    const reports = lines.map((line) => JSON.parse(line) as { stopReason: string; sent: ChatMessage[] });
    expect(reports).toHaveLength(3);
    for (const report of reports) {
      expect(report.stopReason).toBe('final');
      expect(report.sent).toEqual([
        { role: 'system', content: 'You help.' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'done' },
      ]);
    }
  }, 25_000);
});
