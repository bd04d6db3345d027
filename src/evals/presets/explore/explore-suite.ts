import type { EvaluateOptions } from '../../evaluate.js';
import type { EvalCase } from '../../eval-case.js';
import type { Scorer } from '../../scorer.js';
import { runExplorer } from '../../../flows/explorer/run-explorer.js';
import type { ExplorerDepth } from '../../../flows/explorer/explorer-depth.js';
import type { ExplorerReport } from '../../../flows/explorer/explorer-report-schema.js';
import type { ModelAdapter } from '../../../model/model-adapter.js';
import { addUsage, emptyUsage } from '../../../model/usage.js';
import type { TraceEvent } from '../../../tracing/trace-events.js';
import { InvalidArgumentError } from '../../../errors/invalid-argument-error.js';
import { exploreQuestions } from './explore-questions.js';
import type { ExploreQuestion } from './explore-questions.js';
import { resolveExploreRepository } from './explore-repositories.js';
import type { ExploreRepositoryLocation, ExploreRepositoryName } from './explore-repositories.js';
import { scoreExplorerFiles } from './score-explorer-files.js';

/** What a case of the exploration eval expects: its question, and the folder its repository is in. */
export interface ExploreExpectation {
  readonly question: ExploreQuestion;
  readonly folder: string;
}

/** Options of {@link exploreEvalSuite}. */
export interface ExploreEvalSuiteOptions {
  /** The model the explorer runs on. */
  readonly adapter: ModelAdapter;
  /** The questions to ask. @default all of {@link exploreQuestions} */
  readonly questions?: readonly ExploreQuestion[];
  /** Only the questions with these ids. @default every question */
  readonly ids?: readonly string[];
  /** The explorer's budget of turns. @default 'normal' */
  readonly depth?: ExplorerDepth;
  /** Questions explored at once. @default 2 */
  readonly concurrency?: number;
  /** Finds a repository's folder. @default resolveExploreRepository */
  readonly resolveRepository?: (name: ExploreRepositoryName) => ExploreRepositoryLocation;
}

/** The exploration eval as `evaluate()`'s options, and the questions left out because their repository is missing. */
export interface ExploreEvalSuite {
  readonly suite: EvaluateOptions<string, ExploreExpectation>;
  readonly skipped: readonly { readonly id: string; readonly reason: string }[];
}

/**
 * The exploration eval: each question is explored with `runExplorer` over its repository, and
 * the report's evidence files are scored against the files a good answer must name
 * ({@link explorerFileRecall}, {@link explorerFilePrecision}). Questions whose repository is not
 * on this machine (the fixtures exist only in a checkout; `axios` must be installed) are skipped
 * and listed with the reason.
 *
 * @throws {InvalidArgumentError} when `ids` names a question that does not exist.
 * @example
 * const { suite, skipped } = exploreEvalSuite({ adapter, ids: ['axios-cancel-token'] });
 * const report = await evaluate(suite);
 */
export function exploreEvalSuite(options: ExploreEvalSuiteOptions): ExploreEvalSuite {
  const all = options.questions ?? exploreQuestions;
  const wanted = options.ids === undefined ? undefined : new Set(options.ids);
  for (const id of wanted ?? []) {
    if (!all.some((question) => question.id === id)) {
      throw new InvalidArgumentError({
        argument: 'ids',
        value: id,
        message: `names no question of the exploration eval; the ids are: ${all.map((question) => question.id).join(', ')}.`,
      });
    }
  }
  const resolve =
    options.resolveRepository ?? ((name: ExploreRepositoryName) => resolveExploreRepository(name));
  const locations = new Map<ExploreRepositoryName, ExploreRepositoryLocation>();
  const dataset: EvalCase<string, ExploreExpectation>[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const question of all) {
    if (wanted !== undefined && !wanted.has(question.id)) continue;
    let location = locations.get(question.repository);
    if (location === undefined) locations.set(question.repository, (location = resolve(question.repository)));
    if (location.type === 'missing') {
      skipped.push({ id: question.id, reason: location.reason });
      continue;
    }
    dataset.push({
      id: question.id,
      input: question.question,
      expected: { question, folder: location.folder },
      tags: [question.repository, ...question.tags],
    });
  }
  const { adapter } = options;
  return {
    skipped,
    suite: {
      name: 'explore',
      dataset,
      concurrency: options.concurrency ?? 2,
      scorers: [explorerFileRecall(), explorerFilePrecision()],
      task: async (input, { signal, case: evalCase }) => {
        const traces: TraceEvent[] = [];
        const report = await runExplorer({
          adapter,
          root: evalCase.expected!.folder,
          question: input,
          depth: options.depth ?? 'normal',
          signal,
          traceEmitter: (event) => {
            traces.push(event);
          },
        });
        let usage = emptyUsage;
        for (const event of traces) if (event.type === 'llm_call') usage = addUsage(usage, event.data.usage);
        return { content: JSON.stringify(report), output: report, traces, usage };
      },
    },
  };
}

/** The case's expectation and report, or a reason they are not there. */
function filesScore(scoredCase: { expected: unknown; output?: unknown }) {
  const expectation = scoredCase.expected as ExploreExpectation | undefined;
  const report = scoredCase.output as ExplorerReport | undefined;
  if (expectation?.question === undefined)
    throw new Error('the case expects no files: use it with exploreEvalSuite cases');
  if (report?.findings === undefined) throw new Error('the task returned no ExplorerReport as its output');
  return scoreExplorerFiles(report, expectation.question, { repositoryFolder: expectation.folder });
}

const list = (files: readonly string[]): string => (files.length === 0 ? 'none' : files.join(', '));

/** Recall of the files a good answer must name: passes when the report names every one. */
export function explorerFileRecall(): Scorer {
  return {
    name: 'file_recall',
    threshold: 1,
    score: (scoredCase) => {
      const score = filesScore(scoredCase);
      return { score: score.recall, reason: `named ${list(score.named)}; missing ${list(score.missing)}` };
    },
  };
}

/** Precision of the files the report names: passes when at least half are expected or acceptable. */
export function explorerFilePrecision(): Scorer {
  return {
    name: 'file_precision',
    threshold: 0.5,
    score: (scoredCase) => {
      const score = filesScore(scoredCase);
      return {
        score: score.precision,
        reason: `named ${list(score.named)}; off the mark ${list(score.extra)}`,
      };
    },
  };
}
