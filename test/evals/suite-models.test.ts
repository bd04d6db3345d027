import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, ToolOrchestrator } from '../../src/index.js';
import type { ModelAdapter } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { cassettePathFor, createSuiteModels } from '../../src/evals.js';

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'suite-models-'));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const ask = (adapter: ModelAdapter, question: string) =>
  new ToolOrchestrator(adapter, {}).run([{ role: 'user', content: question }]);

describe('cassettePathFor', () => {
  it('keeps the path for the default model and inserts the name before the extension for others', () => {
    expect(cassettePathFor('evals/support.jsonl', 'default')).toBe('evals/support.jsonl');
    expect(cassettePathFor('evals/support.jsonl', 'judge')).toBe('evals/support.judge.jsonl');
    expect(cassettePathFor('evals.d/support', 'judge')).toBe('evals.d/support.judge');
  });
});

describe('createSuiteModels', () => {
  it('without record or replay calls each factory once per name and returns the adapter itself', () => {
    const { context, requested } = createSuiteModels();
    let calls = 0;
    const agent = new ScriptedAdapter([]);
    const create = () => {
      calls += 1;
      return agent;
    };
    expect(context.model(create)).toBe(agent);
    expect(context.model(create)).toBe(agent);
    expect(calls).toBe(1);
    expect(requested()).toEqual(['default']);
  });

  it('records each named model to its own cassette, and replays them without calling the factories', async () => {
    const base = join(scratch, 'support.jsonl');
    const recording = createSuiteModels({ record: base });
    const agent = recording.context.model(() => new ScriptedAdapter([ScriptedAdapter.text('Paris')]));
    const judge = recording.context.model(() => new ScriptedAdapter([ScriptedAdapter.text('0.9')]), {
      name: 'judge',
    });
    const recordedAnswers = [
      (await ask(agent, 'Capital of France?')).content,
      (await ask(judge, 'Grade: Paris')).content,
    ];
    expect(recording.requested()).toEqual(['default', 'judge']);
    expect(await readFile(base, 'utf8')).toContain('Capital of France?');
    expect(await readFile(join(scratch, 'support.judge.jsonl'), 'utf8')).toContain('Grade: Paris');

    const replaying = createSuiteModels({ replay: base });
    const offline = (): ModelAdapter => {
      throw new Error('the factory must not run when replaying');
    };
    // Asked in the other order: each name finds its own cassette.
    const replayedJudge = replaying.context.model(offline, { name: 'judge' });
    const replayedAgent = replaying.context.model(offline);
    expect([
      (await ask(replayedAgent, 'Capital of France?')).content,
      (await ask(replayedJudge, 'Grade: Paris')).content,
    ]).toEqual(recordedAnswers);
    expect(recordedAnswers).toEqual(['Paris', '0.9']);
  });

  it('refuses a name that cannot be part of a file name, a missing cassette, and record with replay', () => {
    const { context } = createSuiteModels({ record: join(scratch, 'a.jsonl') });
    expect(() => context.model(() => new ScriptedAdapter([]), { name: '../judge' })).toThrow(
      /must be letters, digits/,
    );
    const replaying = createSuiteModels({ replay: join(scratch, 'missing.jsonl') });
    expect(() => replaying.context.model(() => new ScriptedAdapter([]))).toThrow(InvalidArgumentError);
    expect(() => replaying.context.model(() => new ScriptedAdapter([]))).toThrow(
      /has no cassette for the model "default": record the suite first with --record/,
    );
    expect(() => createSuiteModels({ record: 'a.jsonl', replay: 'a.jsonl' })).toThrow(
      /record and replay exclude each other/,
    );
  });
});
