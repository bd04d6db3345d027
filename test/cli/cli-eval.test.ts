import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const from = (entry: string): string => JSON.stringify(pathToFileURL(join(dist, entry)).href);
let scratch: string;

/** A suite whose agent answers each question from `answers` (a scripted model, one tool call first). */
function suiteSource(answers: Record<string, string>): string {
  return `
import { ToolOrchestrator, defineTool } from ${from('index.js')};
import { ScriptedAdapter } from ${from('testing.js')};
import { answerEquals, toolWasCalled } from ${from('evals.js')};

const answers = ${JSON.stringify(answers)};
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a country up',
  parameters: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
  execute: ({ country }) => 'notes on ' + country,
});

export default {
  name: 'capitals',
  dataset: Object.keys(answers).map((country) => ({
    id: country,
    input: country,
    expected: { answer: { France: 'Paris', Japan: 'Tokyo', Peru: 'Lima' }[country] },
  })),
  task: (country, { signal }) =>
    new ToolOrchestrator(
      new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['lookup', { country }]]),
        ScriptedAdapter.text(answers[country]),
      ]),
      { lookup },
    ).run([{ role: 'user', content: 'Capital of ' + country + '?' }], undefined, { signal }),
  scorers: [answerEquals(), toolWasCalled('lookup')],
};
`;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cli-eval-'));
  await writeFile(join(scratch, 'good.mjs'), suiteSource({ France: 'Paris', Japan: 'Tokyo', Peru: 'Lima' }));
  await writeFile(
    join(scratch, 'worse.mjs'),
    suiteSource({ France: 'Paris', Japan: 'Kyoto', Peru: 'Cusco' }),
  );
  await writeFile(join(scratch, 'empty.mjs'), 'export const nothing = 1;\n');
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('tool-orchestrator eval', () => {
  it('runs a suite, writes the JSON report and prints each scorer and the failing cases', async () => {
    const out = join(scratch, 'worse.json');
    const result = await runBuiltCli(['eval', join(scratch, 'worse.mjs'), '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('capitals: 1/3 cases passed (33.3%)');
    expect(result.stdout).toMatch(/answer_equals\s+mean 0\.333\s+passed 1\/3/);
    expect(result.stdout).toMatch(/tool_was_called:lookup\s+mean 1\.000\s+passed 3\/3/);
    expect(result.stdout).toContain('FAILED Japan');
    expect(result.stdout).toContain('FAILED Peru');
    const report = JSON.parse(await readFile(out, 'utf8')) as { summary: { passed: number; cases: number } };
    expect(report.summary).toMatchObject({ passed: 1, cases: 3 });
  });

  it('with --html, also writes the HTML report and a trace page per case beside it', async () => {
    const html = join(scratch, 'html', 'worse.html');
    const result = await runBuiltCli([
      'eval',
      join(scratch, 'worse.mjs'),
      '--out',
      join(scratch, 'html.json'),
      '--html',
      html,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`html report: ${html}`);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<dd data-summary="passed">1 / 3</dd>');
    expect(page).toContain('<a class="trace-link" href="worse-traces/Japan.html">trace</a>');
    expect((await readdir(join(scratch, 'html', 'worse-traces'))).sort()).toEqual([
      'France.html',
      'Japan.html',
      'Peru.html',
    ]);
  });

  it('with --compare, says what got worse and exits 1 when it regressed; 0 when it did not', async () => {
    const baseline = join(scratch, 'baseline.json');
    const good = await runBuiltCli(['eval', join(scratch, 'good.mjs'), '--out', baseline]);
    expect(good.code, good.stderr).toBe(0);
    const worse = await runBuiltCli([
      'eval',
      join(scratch, 'worse.mjs'),
      '--out',
      join(scratch, 'after.json'),
      '--compare',
      baseline,
    ]);
    expect(worse.code).toBe(1);
    expect(worse.stdout).toContain('worse: Japan, Peru');
    expect(worse.stdout).toContain('REGRESSED');
    const same = await runBuiltCli([
      'eval',
      join(scratch, 'good.mjs'),
      '--out',
      join(scratch, 'again.json'),
      '--compare',
      baseline,
      '--json',
    ]);
    expect(same.code, same.stderr).toBe(0);
    const printed = JSON.parse(same.stdout) as {
      comparison: { regressed: boolean };
      summary: { passed: number };
    };
    expect(printed.comparison.regressed).toBe(false);
    expect(printed.summary.passed).toBe(3);
  });

  it('refuses a file that exports no suite, and a threshold out of range, with exit code 2', async () => {
    const empty = await runBuiltCli(['eval', join(scratch, 'empty.mjs')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('exports no suite');
    const threshold = await runBuiltCli(['eval', join(scratch, 'good.mjs'), '--threshold', '2']);
    expect(threshold.code).toBe(2);
    expect(threshold.stderr).toContain('--threshold takes a number from 0 to 1');
  });
});
