import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EvalSuite, EvalSuiteModule } from '../evals/eval-suite.js';
import type { EvalReport } from '../evals/eval-report.js';
import type { ReportComparison } from '../evals/compare-reports.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { CommandFailure } from './command-failure.js';
import { choiceFlag, describeFileError, positiveIntegerFlag } from './flag-values.js';
import { createCliAdapter, resolveModelSettings } from './create-cli-adapter.js';
import type { CliAdapterFlags } from './create-cli-adapter.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { helpTexts } from './help-texts.js';
import { parseFlags } from './parse-flags.js';

type Suite = EvalSuite;

/**
 * `eval SUITE.mjs`: runs a suite's dataset through its task with `evaluate()`, writes the JSON
 * report (and with `--html` the HTML one), prints a summary, and with `--compare` says what got
 * better and worse; exit code 1 when it regressed.
 */
export async function evalCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    'eval',
    {
      out: { type: 'string', default: 'eval-report.json', placeholder: 'REPORT.json' },
      html: { type: 'string', placeholder: 'REPORT.html' },
      compare: { type: 'string', placeholder: 'BASELINE.json' },
      threshold: { type: 'string', default: '0', placeholder: '0.02' },
      concurrency: { type: 'string', placeholder: '4' },
      preset: { type: 'string', placeholder: 'explore' },
      questions: { type: 'string', placeholder: 'ID,ID' },
      depth: { type: 'string', default: 'normal', placeholder: 'normal' },
      provider: { type: 'string', placeholder: 'deepseek' },
      model: { type: 'string', placeholder: 'NAME' },
      'base-url': { type: 'string', placeholder: 'http://127.0.0.1:11434/v1' },
      record: { type: 'string', placeholder: 'CASSETTE.jsonl' },
      replay: { type: 'string', placeholder: 'CASSETTE.jsonl' },
      json: { type: 'boolean' },
    },
    argv,
  );
  if (values.help) {
    io.stdout(`${helpTexts.eval}\n`);
    return exitCodes.ok;
  }
  const file = positionals[0];
  if (values.preset === undefined ? file === undefined || positionals.length > 1 : positionals.length > 0) {
    throw new UsageError(
      'give one suite file, e.g. tool-orchestrator eval evals/support.mjs, or a preset: tool-orchestrator eval --preset explore --model NAME',
      { code: 'missing_argument' },
    );
  }
  if (values.preset !== undefined) choiceFlag('--preset', values.preset, ['explore']);
  const depth = choiceFlag('--depth', values.depth, ['shallow', 'normal', 'deep']);
  if (values.record !== undefined && values.replay !== undefined) {
    throw new UsageError('--record and --replay exclude each other: record a session once, then replay it.', {
      code: 'invalid_flag_value',
    });
  }
  const threshold = Number(values.threshold);
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new UsageError(
      `--threshold takes a number from 0 to 1, e.g. --threshold 0.02; got "${values.threshold}"`,
      {
        code: 'invalid_flag_value',
      },
    );
  }
  const concurrency =
    values.concurrency === undefined
      ? undefined
      : positiveIntegerFlag('--concurrency', values.concurrency, '4');
  const evals = await import('../evals/evaluate.js');
  const files = await import('../evals/report-file.js');
  const { compareReports } = await import('../evals/compare-reports.js');
  // The baseline is read before the suite runs: a bad path fails at once, not after the evaluation.
  const baseline = values.compare === undefined ? undefined : await files.readReport(values.compare);
  const suite =
    values.preset === undefined
      ? await fileSuite(file!, { record: values.record, replay: values.replay })
      : await presetSuite(io, {
          depth,
          questions: values.questions,
          record: values.record,
          replay: values.replay,
          flags: { provider: values.provider, model: values.model, baseUrl: values['base-url'] },
          json: values.json,
        });
  const signal = io.trapInterrupts();
  const progress = !values.json && io.stderrIsTty;
  const report = await evals.evaluate({
    ...suite,
    ...(concurrency === undefined ? {} : { concurrency }),
    signal,
    ...(progress
      ? {
          onProgress: ({ done, total, result }) =>
            io.stderr(
              `\r${bar(done, total)} ${done}/${total} ${result.passed ? 'passed' : 'FAILED'} ${result.id}\x1b[K`,
            ),
        }
      : {}),
  });
  if (progress) io.stderr('\n');
  await files.writeReport(report, values.out).catch((error: unknown) => {
    throw new CommandFailure(`could not write the report to ${values.out}: ${describeFileError(error)}`, {
      code: 'report_file',
      cause: error,
    });
  });
  if (values.html !== undefined) {
    const { writeEvalHtml } = await import('../evals/write-eval-html.js');
    await writeEvalHtml(report, values.html).catch((error: unknown) => {
      throw new CommandFailure(
        `could not write the HTML report to ${values.html}: ${describeFileError(error)}`,
        {
          code: 'report_file',
          cause: error,
        },
      );
    });
  }
  const comparison = baseline === undefined ? undefined : compareReports(baseline, report, { threshold });
  if (values.json) {
    io.stdout(`${JSON.stringify({ report: values.out, summary: report.summary, comparison })}\n`);
  } else {
    io.stdout(`${summaryText(report, values.out)}\n`);
    if (values.html !== undefined) io.stdout(`html report: ${values.html}\n`);
    if (comparison !== undefined) io.stdout(`${comparisonText(comparison, values.compare!)}\n`);
  }
  if (report.aborted) return exitCodes.interrupted;
  return comparison?.regressed === true ? exitCodes.failure : exitCodes.ok;
}

/** The model flags and what a preset needs of them. */
interface PresetOptions {
  readonly depth: 'shallow' | 'normal' | 'deep';
  readonly questions: string | undefined;
  readonly record: string | undefined;
  readonly replay: string | undefined;
  readonly flags: CliAdapterFlags;
  readonly json: boolean;
}

/**
 * The exploration preset's suite over the model the flags name: recorded to a cassette with
 * `--record`, or answered from one with `--replay` (matched by request, since the questions run
 * at once and their calls interleave differently each time). Skipped questions are listed on stderr.
 */
async function presetSuite(io: CliIo, options: PresetOptions): Promise<Suite> {
  let adapter: ModelAdapter;
  if (options.replay !== undefined) {
    const { ReplayAdapter, matchByRequest } = await import('../replay/replay-adapter.js');
    adapter = new ReplayAdapter({ path: options.replay, match: matchByRequest });
  } else {
    adapter = await createCliAdapter(resolveModelSettings(options.flags, io.env));
    if (options.record !== undefined) {
      const { recordModel } = await import('../replay/record-model.js');
      adapter = recordModel(adapter, { path: options.record });
    }
  }
  const { exploreEvalSuite } = await import('../evals/presets/explore/explore-suite.js');
  const ids = options.questions
    ?.split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  let built;
  try {
    built = exploreEvalSuite({ adapter, depth: options.depth, ...(ids === undefined ? {} : { ids }) });
  } catch (error) {
    throw new UsageError(`--questions: ${(error as Error).message}`, { code: 'invalid_flag_value' });
  }
  if (!options.json) {
    for (const { id, reason } of built.skipped) io.stderr(`skipped ${id}: ${reason}\n`);
  }
  return built.suite as Suite;
}

/**
 * The suite a file exports, built: a suite function is given `{ model }`, which records its models
 * with `--record` and answers them from cassettes with `--replay`.
 *
 * @throws {UsageError} when the file cannot be loaded, exports no suite, or cannot be recorded or
 * replayed as it is written.
 */
async function fileSuite(
  file: string,
  cassettes: { readonly record: string | undefined; readonly replay: string | undefined },
): Promise<Suite> {
  const exported = await loadSuite(file);
  const flag = cassettes.record !== undefined ? '--record' : cassettes.replay !== undefined ? '--replay' : '';
  if (typeof exported !== 'function') {
    if (flag !== '') {
      throw new UsageError(
        `${flag} needs a suite that builds its models with model(): export default ({ model }) => { const adapter = model(() => new OpenAIAdapter({ model: '...' })); return { dataset, task, scorers }; } (${file} exports the suite object itself)`,
        { code: 'invalid_argument' },
      );
    }
    return checkedSuite(exported, file);
  }
  const { createSuiteModels } = await import('../evals/suite-models.js');
  const models = createSuiteModels({
    ...(cassettes.record === undefined ? {} : { record: cassettes.record }),
    ...(cassettes.replay === undefined ? {} : { replay: cassettes.replay }),
  });
  let built: unknown;
  try {
    built = await exported(models.context);
  } catch (error) {
    throw new UsageError(`could not build the suite ${file}: ${(error as Error).message}`, {
      code: 'invalid_argument',
    });
  }
  if (flag !== '' && models.requested().length === 0) {
    throw new UsageError(
      `${flag}: ${file} asked for no model while it was built, so nothing would be ${flag === '--record' ? 'recorded' : 'replayed'}; call model(() => adapter) in the suite function, not inside its task`,
      { code: 'invalid_argument' },
    );
  }
  return checkedSuite(built, file);
}

/**
 * What a suite file exports (`default`, else `suite`). A `.ts` suite loads when Node can import
 * TypeScript: under a loader such as tsx (`NODE_OPTIONS='--import tsx'`), or a Node that strips types.
 *
 * @throws {UsageError} when the file cannot be loaded.
 */
async function loadSuite(file: string): Promise<EvalSuiteModule | undefined> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const hint =
      code === 'ERR_UNKNOWN_FILE_EXTENSION'
        ? `: this Node cannot import TypeScript itself; run it with a loader, NODE_OPTIONS='--import tsx' npx tool-orchestrator eval ${file}, or give a .mjs suite`
        : `: ${(error as Error).message}`;
    throw new UsageError(`could not load the suite ${file}${hint}`, { code: 'invalid_argument' });
  }
  return (module['default'] ?? module['suite']) as EvalSuiteModule | undefined;
}

/** @throws {UsageError} unless `value` has a dataset, a task and scorers. */
function checkedSuite(value: unknown, file: string): Suite {
  const suite = value as Partial<Suite> | undefined;
  if (
    typeof suite !== 'object' ||
    suite === null ||
    !Array.isArray(suite.dataset) ||
    typeof suite.task !== 'function' ||
    !Array.isArray(suite.scorers)
  ) {
    throw new UsageError(
      `${file} exports no suite: export default { dataset: [...], task: async (input) => ..., scorers: [...] } (the options of evaluate() from tool-orchestrator/evals), or a function ({ model }) => that suite`,
      { code: 'invalid_argument' },
    );
  }
  return suite as Suite;
}

function bar(done: number, total: number): string {
  const width = 20;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;

/** The report in a few lines: cases, each scorer's mean and pass rate, the failing cases. */
export function summaryText(report: EvalReport, path: string): string {
  const { summary } = report;
  const lines = [
    `${report.name ?? 'evaluation'}: ${summary.passed}/${summary.cases} cases passed (${percent(summary.passRate)}), mean score ${summary.meanScore.toFixed(3)}, ${(report.durationMs / 1000).toFixed(1)} s`,
  ];
  if (summary.errored + summary.aborted + summary.notRun > 0) {
    lines.push(`  errored ${summary.errored}, aborted ${summary.aborted}, not run ${summary.notRun}`);
  }
  const width = Math.max(0, ...summary.scorers.map((scorer) => scorer.name.length));
  for (const scorer of summary.scorers) {
    lines.push(
      `  ${scorer.name.padEnd(width)}  mean ${scorer.mean.toFixed(3)}  passed ${scorer.passed}/${scorer.passed + scorer.failed}${scorer.scorerFailures > 0 ? `  (${scorer.scorerFailures} scorer failures)` : ''}`,
    );
  }
  const failing = report.cases.filter((result) => !result.passed && result.status !== 'not_run');
  for (const result of failing.slice(0, 10)) {
    const reasons = Object.entries(result.scores)
      .filter(([, score]) => !score.passed)
      .map(([name, score]) => `${name}: ${score.reason}`);
    lines.push(`  FAILED ${result.id}: ${result.error?.message ?? reasons.join('; ')}`);
  }
  if (failing.length > 10) lines.push(`  ... and ${failing.length - 10} more failing cases (see the report)`);
  lines.push(`report: ${path}`);
  return lines.join('\n');
}

/** What changed against the baseline, and whether it regressed. */
export function comparisonText(comparison: ReportComparison, baselinePath: string): string {
  const lines = [`against ${baselinePath}:`];
  for (const scorer of comparison.scorers) {
    const sign = scorer.delta > 0 ? '+' : '';
    lines.push(
      `  ${scorer.name}: ${scorer.change}${scorer.change === 'same' ? '' : ` (${sign}${scorer.delta.toFixed(3)})`}`,
    );
  }
  const better = comparison.cases.filter((entry) => entry.change === 'better').map((entry) => entry.id);
  const worse = comparison.cases.filter((entry) => entry.change === 'worse').map((entry) => entry.id);
  if (better.length > 0) lines.push(`  better: ${better.join(', ')}`);
  if (worse.length > 0) lines.push(`  worse: ${worse.join(', ')}`);
  if (comparison.newCases.length > 0) lines.push(`  new cases: ${comparison.newCases.join(', ')}`);
  if (comparison.missingCases.length > 0)
    lines.push(`  missing cases: ${comparison.missingCases.join(', ')}`);
  lines.push(
    comparison.regressed
      ? `REGRESSED:\n${comparison.regressions.map((line) => `  ${line}`).join('\n')}`
      : 'no regression',
  );
  return lines.join('\n');
}
