import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EvalReportError,
  answerEquals,
  evaluate,
  readReport,
  toolWasCalled,
  writeReport,
} from '../../src/evals.js';
import type { EvalReport } from '../../src/evals.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { runScripted, usage } from '../support/scripted-eval.js';

let scratch: string;
let report: EvalReport;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'evals-'));
  report = await evaluate({
    name: 'round trip',
    dataset: [
      { id: 'ok', input: 'alpha', expected: { answer: 'done' }, tags: ['t'] },
      { id: 'boom', input: 'beta' },
    ],
    task: (word, { signal }) => {
      if (word === 'beta') throw new Error('no');
      return runScripted(
        String(word),
        [
          ScriptedAdapter.toolCalls([['lookup', { word }, 'call_1']], { usage: usage(10) }),
          ScriptedAdapter.text('done'),
        ],
        signal,
      );
    },
    scorers: [answerEquals(), toolWasCalled('lookup')],
  });
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('writeReport and readReport', () => {
  it('write a report as JSON and read it back equal, traces included', async () => {
    const path = join(scratch, 'nested', 'report.json');
    await writeReport(report, path);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ version: 1, name: 'round trip' });
    const read = await readReport(path);
    expect(read).toEqual(JSON.parse(JSON.stringify(report)));
    expect(read.cases[0]!.traces.length).toBeGreaterThan(0);
  });

  it('refuse a damaged report, naming the field', async () => {
    const damaged = JSON.parse(JSON.stringify(report)) as {
      cases: { scores: Record<string, { score: unknown }> }[];
    };
    damaged.cases[0]!.scores['answer_equals']!.score = 'high';
    const path = join(scratch, 'damaged.json');
    await writeFile(path, JSON.stringify(damaged));
    const error = await readReport(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EvalReportError);
    expect(error).toMatchObject({
      code: 'eval_report_invalid',
      path,
      message: expect.stringMatching(
        /is not a valid evaluation report: at cases\[0\]\.scores\.answer_equals\.score, .*Write it with writeReport\(\), or repair that field\.$/,
      ),
    });
  });

  it('refuse a file that is not JSON, of another version, or missing', async () => {
    const notJson = join(scratch, 'not.json');
    await writeFile(notJson, '{"version": 1,');
    await expect(readReport(notJson)).rejects.toThrow(
      /not\.json is not JSON \(.*\): is it an evaluation report/,
    );
    const otherVersion = join(scratch, 'v2.json');
    await writeFile(otherVersion, JSON.stringify({ ...report, version: 2 }));
    await expect(readReport(otherVersion)).rejects.toThrow(
      /is not an evaluation report of version 1 \(its version is 2\)/,
    );
    await expect(readReport(join(scratch, 'missing.json'))).rejects.toThrow(
      /cannot read the evaluation report .*missing\.json: ENOENT/,
    );
  });
});
