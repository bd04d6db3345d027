import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completion } from '../adapters/fake-openai-server.js';
import { runBuiltCli } from '../support/built-cli.js';
import { useExploreFixture } from '../support/explore-fixture.js';

const context = useExploreFixture('cli-eval-preset-');

/** An explorer report citing `files` as its evidence. */
function reportCiting(files: readonly string[]) {
  return {
    question: 'How does the older CancelToken API cancel a request?',
    inferredUserGoal: null,
    confidence: 0.8,
    repoMap: { entrypoints: [], keyDirs: [], configs: [], commands: [] },
    findings: [
      {
        summary: 'CancelToken sets its reason and resolves the promise its listeners wait on.',
        evidence: files.map((file) => ({ file, lines: '1-20', excerpt: '...' })),
      },
    ],
    missingInfoQuestions: [],
    recommendedNextAction: 'ready_to_plan',
  };
}

describe('tool-orchestrator eval --preset explore', () => {
  it('explores the chosen questions and scores the cited files; --record then --replay runs offline with the same scores', async () => {
    context.server.enqueue({
      type: 'json',
      body: completion({
        content: JSON.stringify(reportCiting(['lib/cancel/CancelToken.js', 'lib/helpers/bind.js'])),
      }),
    });
    const cassette = join(context.repo, 'explore.jsonl');
    const base = ['eval', '--preset', 'explore', '--questions', 'axios-cancel-token', '--depth', 'shallow'];
    const recorded = await runBuiltCli([
      ...base,
      '--base-url',
      context.server.baseURL,
      '--model',
      'm',
      '--record',
      cassette,
      '--out',
      join(context.repo, 'recorded.json'),
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain('explore: 0/1 cases passed');
    expect(recorded.stdout).toMatch(/file_recall\s+mean 0\.500/);
    expect(recorded.stdout).toMatch(/file_precision\s+mean 0\.500/);
    expect(recorded.stdout).toContain('missing lib/cancel/CanceledError.js');
    const requests = context.server.requests.length;

    const replayed = await runBuiltCli(
      [...base, '--replay', cassette, '--out', join(context.repo, 'replayed.json'), '--json'],
      { env: { OPENAI_API_KEY: '', DEEPSEEK_API_KEY: '' } },
    );
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(context.server.requests).toHaveLength(requests);
    const printed = JSON.parse(replayed.stdout) as { summary: { scorers: { name: string; mean: number }[] } };
    expect(printed.summary.scorers.map(({ name, mean }) => [name, mean])).toEqual([
      ['file_recall', 0.5],
      ['file_precision', 0.5],
    ]);
    const report = JSON.parse(await readFile(join(context.repo, 'replayed.json'), 'utf8')) as {
      cases: { id: string; traces: unknown[] }[];
    };
    expect(report.cases.map((entry) => entry.id)).toEqual(['axios-cancel-token']);
    expect(report.cases[0]!.traces.length).toBeGreaterThan(0);
  });

  it('names an unknown question id, and refuses a suite file beside a preset', async () => {
    const unknown = await runBuiltCli([
      'eval',
      '--preset',
      'explore',
      '--questions',
      'no-such-question',
      '--base-url',
      context.server.baseURL,
      '--model',
      'm',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no-such-question');
    const both = await runBuiltCli(['eval', 'suite.mjs', '--preset', 'explore']);
    expect(both.code).toBe(2);
  });
});
