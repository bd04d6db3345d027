import { describe, expect, it } from 'vitest';
import type { ExplorerReport } from '../../../src/flows/explorer/explorer-report-schema.js';
import type { ExploreQuestion } from '../../../src/evals/presets/explore/explore-questions.js';
import { scoreExplorerFiles } from '../../../src/evals/presets/explore/score-explorer-files.js';

const question: ExploreQuestion = {
  id: 'status-rejection',
  repository: 'axios',
  question: 'Which status codes reject?',
  expectedFiles: ['lib/core/settle.js', 'lib/defaults/index.js'],
  acceptableFiles: ['lib/core/AxiosError.js'],
  tags: ['error-handling'],
  why: 'settle() and validateStatus',
};

/** A report whose findings cite `files` as evidence, one finding per group. */
function reportCiting(
  files: readonly (readonly string[])[],
  repoMap: Partial<ExplorerReport['repoMap']> = {},
): ExplorerReport {
  return {
    question: question.question,
    inferredUserGoal: null,
    confidence: 0.7,
    repoMap: { entrypoints: [], keyDirs: [], configs: [], commands: [], ...repoMap },
    findings: files.map((group) => ({
      summary: 'found',
      evidence: group.map((file) => ({ file, lines: '1-2', excerpt: 'x' })),
    })),
    missingInfoQuestions: [],
    recommendedNextAction: 'ready_to_plan',
  };
}

describe('scoreExplorerFiles', () => {
  it('gives recall and precision 1 when the evidence names exactly the expected files', () => {
    expect(
      scoreExplorerFiles(reportCiting([['lib/core/settle.js'], ['lib/defaults/index.js']]), question),
    ).toEqual({
      recall: 1,
      precision: 1,
      named: ['lib/core/settle.js', 'lib/defaults/index.js'],
      missing: [],
      extra: [],
    });
  });

  it('counts acceptable files as precise but not toward recall, and lists the missing and extra files', () => {
    const score = scoreExplorerFiles(
      reportCiting([['lib/core/settle.js', 'lib/core/AxiosError.js'], ['lib/adapters/http.js']]),
      question,
    );
    expect(score.recall).toBe(0.5);
    expect(score.precision).toBeCloseTo(2 / 3);
    expect(score.missing).toEqual(['lib/defaults/index.js']);
    expect(score.extra).toEqual(['lib/adapters/http.js']);
  });

  it('names a file once however often the evidence cites it', () => {
    const score = scoreExplorerFiles(
      reportCiting([
        ['lib/core/settle.js', 'lib/core/settle.js'],
        ['./lib/core/settle.js', 'lib/utils.js'],
      ]),
      question,
    );
    expect(score.named).toEqual(['lib/core/settle.js', 'lib/utils.js']);
    expect(score.precision).toBe(0.5);
    expect(score.recall).toBe(0.5);
  });

  it('does not count repoMap entries as named files', () => {
    const score = scoreExplorerFiles(
      reportCiting([['lib/core/settle.js']], {
        entrypoints: ['lib/defaults/index.js'],
        configs: ['package.json'],
        keyDirs: ['lib/core'],
      }),
      question,
    );
    expect(score.named).toEqual(['lib/core/settle.js']);
    expect(score.recall).toBe(0.5);
    expect(score.precision).toBe(1);
  });

  it('scores a report that names no file 0 for recall and for precision', () => {
    expect(scoreExplorerFiles(reportCiting([]), question)).toEqual({
      recall: 0,
      precision: 0,
      named: [],
      missing: ['lib/core/settle.js', 'lib/defaults/index.js'],
      extra: [],
    });
  });

  it.each([
    ['./lib/core/settle.js'],
    ['././lib/core/settle.js'],
    ['lib\\core\\settle.js'],
    ['.\\lib\\core\\settle.js'],
    [' lib/core/settle.js '],
    ['lib/core/settle.js:12'],
    ['lib/core/settle.js:12-27'],
    ['lib/core/settle.js#L12-L27'],
    ['lib//core/settle.js'],
    ['/home/dev/project/node_modules/axios/lib/core/settle.js'],
    ['C:\\dev\\project\\node_modules\\axios\\lib\\core\\settle.js'],
    ['/repo/node_modules/.pnpm/axios@1.21.1/node_modules/axios/lib/core/settle.js'],
    ['node_modules/axios/lib/core/settle.js'],
    ['axios/lib/core/settle.js'],
  ])('reads %j as lib/core/settle.js', (reported) => {
    const score = scoreExplorerFiles(reportCiting([[reported]]), question);
    expect(score.named).toEqual(['lib/core/settle.js']);
    expect(score.recall).toBe(0.5);
    expect(score.precision).toBe(1);
  });

  it('strips a given repository folder from absolute paths, and a fixture folder without one', () => {
    const fixtureQuestion: ExploreQuestion = {
      id: 'queue',
      repository: 'esm',
      question: 'Where is Queue?',
      expectedFiles: ['lib/queue.mjs'],
      tags: ['where-defined'],
      why: 'lib/queue.mjs: class Queue',
    };
    const fromFolder = scoreExplorerFiles(
      reportCiting([['/srv/checkouts/esm-copy/lib/queue.mjs']]),
      fixtureQuestion,
      {
        repositoryFolder: '/srv/checkouts/esm-copy/',
      },
    );
    expect(fromFolder.named).toEqual(['lib/queue.mjs']);
    const fromFixturePath = scoreExplorerFiles(
      reportCiting([['/work/tool-orchestrator/test/fixtures/code-index/esm/lib/queue.mjs']]),
      fixtureQuestion,
    );
    expect(fromFixturePath.named).toEqual(['lib/queue.mjs']);
    expect(fromFixturePath.recall).toBe(1);
  });

  it('keeps an unknown path as written, so it shows up as extra', () => {
    const score = scoreExplorerFiles(reportCiting([['/etc/hosts'], ['lib/core/settle.js']]), question);
    expect(score.extra).toEqual(['/etc/hosts']);
    expect(score.precision).toBe(0.5);
  });
});
