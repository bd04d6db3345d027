import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBuiltCli } from '../support/built-cli.js';

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

/**
 * A suite function: its agent and its judge come from `model()`, so the CLI can record and replay
 * them. Their factories count their calls in `calls.log` and throw when `OFFLINE` is set, so a
 * replay that reached the live models would fail.
 */
const modelSuiteSource = `
import { appendFileSync } from 'node:fs';
import { ToolOrchestrator, defineTool } from ${from('index.js')};
import { answerEquals, llmJudge, toolWasCalled } from ${from('evals.js')};

const capitals = { France: 'Paris', Japan: 'Tokyo', Peru: 'Lima' };
const live = (name, call) => () => {
  if (process.env.OFFLINE) throw new Error('the live ' + name + ' model was asked for while replaying');
  appendFileSync(new URL('./calls.log', import.meta.url), name + '\\n');
  return { provider: 'local', model: name + '-1', call };
};
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a country up',
  parameters: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
  execute: ({ country }) => 'The capital of ' + country + ' is ' + capitals[country] + '.',
});

export default ({ model }) => {
  const agent = model(live('agent', async (messages) => {
    const note = messages.find((message) => message.role === 'tool');
    if (note === undefined) {
      const country = messages[0].content.slice('Capital of '.length, -1);
      return { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ country }) } }] };
    }
    return { content: note.content.split(' is ')[1].slice(0, -1) };
  }));
  const judge = model(live('judge', async (messages) => {
    const asked = messages.at(-1).content;
    const country = asked.split('Task input:\\n')[1].split('\\n')[0];
    const right = asked.split('Answer:\\n')[1].trim() === capitals[country];
    const verdict = { score: right ? 1 : 0, reason: right ? 'names the capital' : 'wrong city' };
    return { content: null, tool_calls: [{ id: 'call_verdict', type: 'function', function: { name: 'verdict', arguments: JSON.stringify(verdict) } }] };
  }), { name: 'judge' });
  return {
    name: 'recorded capitals',
    dataset: Object.entries(capitals).map(([country, capital]) => ({ id: country, input: country, expected: { answer: capital } })),
    task: (country, { signal }) =>
      new ToolOrchestrator(agent, { lookup }).run([{ role: 'user', content: 'Capital of ' + country + '?' }], undefined, { signal }),
    scorers: [answerEquals(), toolWasCalled('lookup'), llmJudge({ adapter: judge, rubric: 'Names the capital.' })],
  };
};
`;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cli-eval-'));
  await mkdir(join(scratch, 'models'));
  await writeFile(join(scratch, 'models', 'suite.mjs'), modelSuiteSource);
  await writeFile(
    join(scratch, 'models', 'no-model.mjs'),
    modelSuiteSource.replace(
      'export default ({ model }) => {',
      'export default ({ model: unused }) => { const model = (create) => create();',
    ),
  );
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

  it('with --record, records each model of a suite function to its cassette; --replay runs it again offline', async () => {
    const folder = join(scratch, 'models');
    const suite = join(folder, 'suite.mjs');
    const cassette = join(folder, 'capitals.jsonl');
    const recorded = await runBuiltCli([
      'eval',
      suite,
      '--out',
      join(folder, 'live.json'),
      '--record',
      cassette,
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain('recorded capitals: 3/3 cases passed');
    expect((await readFile(join(folder, 'calls.log'), 'utf8')).split('\n').sort()).toEqual([
      '',
      'agent',
      'judge',
    ]);
    expect(await readFile(cassette, 'utf8')).toContain('Capital of Peru?');
    expect(await readFile(join(folder, 'capitals.judge.jsonl'), 'utf8')).toContain(
      'Rubric:\\nNames the capital.',
    );

    const replayed = await runBuiltCli(
      ['eval', suite, '--out', join(folder, 'replayed.json'), '--replay', cassette],
      {
        env: cleanEnv({ OFFLINE: '1' }),
      },
    );
    expect(replayed.code, replayed.stderr).toBe(0);
    const scores = async (file: string) =>
      (
        JSON.parse(await readFile(join(folder, file), 'utf8')) as { cases: { id: string; scores: unknown }[] }
      ).cases
        .map(({ id, scores }) => ({ id, scores }))
        .sort((left, right) => left.id.localeCompare(right.id));
    const live = await scores('live.json');
    expect(await scores('replayed.json')).toEqual(live);
    expect(live).toHaveLength(3);
  });

  it('refuses --record for a suite object, a suite function that asks for no model, and --replay without its cassette', async () => {
    const object = await runBuiltCli([
      'eval',
      join(scratch, 'good.mjs'),
      '--record',
      join(scratch, 'object.jsonl'),
    ]);
    expect(object.code).toBe(2);
    expect(object.stderr).toContain('--record needs a suite that builds its models with model()');
    const noModel = await runBuiltCli([
      'eval',
      join(scratch, 'models', 'no-model.mjs'),
      '--record',
      join(scratch, 'none.jsonl'),
    ]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('asked for no model while it was built');
    const missing = join(scratch, 'models', 'never-recorded.jsonl');
    const replay = await runBuiltCli(['eval', join(scratch, 'models', 'suite.mjs'), '--replay', missing]);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain(`${missing}`);
    expect(replay.stderr).toContain(
      'has no cassette for the model "default": record the suite first with --record',
    );
  });
});
